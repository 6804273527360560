/* Arming a run's limits, cancelling it, and the running Lua thread (pss_arm.c). */
#ifndef PSS_ARM_H
#define PSS_ARM_H
#include "pss_context.h"

/* Arms the limits for a run on the calling thread: the CPU budget from now on this thread's
 * CPU clock, `deadline_ns` on CLOCK_MONOTONIC (0 = none), the memory limit. Clears an earlier
 * trip and the cancel flag; starts the limit timers, or the count hook where they cannot be
 * had (what pss_limits_arm in pss.h does). */
void pss_arm(pss_context *ctx, int64_t cpu_budget_ns, int64_t deadline_ns, size_t memory_limit);
/* Stops checking the clocks, on the thread that armed the run (the memory limit stays). */
void pss_disarm(pss_context *ctx);
/* Forgets the run armed on this state, wherever it was armed (the state is closing). */
void pss_arm_forget(pss_context *ctx);
/* Asks the running script to stop at its next check, as if its deadline had come, and makes
 * the armed thread look now. Any thread. */
void pss_arm_cancel(pss_context *ctx);
/* CPU time the armed run's thread used since it was armed, from any thread; -1 when no run is
 * armed. */
int64_t pss_arm_cpu_used_ns(pss_context *ctx);

/* Marks `co` as the running Lua thread and returns the one it replaces; hooks `co` when a limit
 * timer's alarm came already. The guarded resume calls it around lua_resume. */
lua_State *pss_enter_thread(pss_context *ctx, lua_State *co);
/* Marks `previous` as running again after a resume returned. */
void pss_leave_thread(pss_context *ctx, lua_State *previous);

#endif
