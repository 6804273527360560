/* The limit timers: what makes the hook look at the clocks of an armed run while no hook runs.
 *
 * One interface, two backends, chosen when the package is built:
 * - the Linux one (pss_timer_linux.c): two timers of the run's own thread, on its CPU clock
 *   and on the monotonic clock, and a signal that sets the hook on that thread;
 * - the portable one (pss_timer_watchdog.c): no signals. One watchdog thread for the process
 *   wakes at the earliest event of the armed runs (a deadline, the next look at a CPU budget,
 *   a cancel) and sets the hook from there (lua_sethook may be called asynchronously); the hook
 *   then reads the run's own CPU clock on its thread.
 * The portable one is built with the package trait PortableLimits (the C define
 * PSS_PORTABLE_LIMITS), and wherever the system is not Linux.
 *
 * What a backend keeps per state is pss_timer_slot.h's. Both call pss_alarm (pss_kill.h) where
 * the signal or the watchdog finds a run to look at; the kill, its finality and the clocks are
 * the same for both. */
#ifndef PSS_TIMER_H
#define PSS_TIMER_H

#include <stdint.h>
#include "pss_timer_slot.h"

/* Sets a state's slot up, and lets it go (the state is made or closed). */
void pss_timer_init(pss_context *ctx);
void pss_timer_destroy(pss_context *ctx);

/* Called by pss_arm on the arming thread before it takes the context's thread_lock:
 * whatever the thread needs once (its timers, the watchdog). Returns 1 when the run's limits
 * can be signalled, 0 when they cannot (the count hook then reads the clocks). */
int pss_timer_prepare(void);
/* Starts the armed run's timers, its limits set in the context (thread_lock held, on the
 * arming thread, after pss_timer_prepare returned 1). */
void pss_timer_arm(pss_context *ctx);
/* Stops looking at the run (thread_lock held, on the arming thread). */
void pss_timer_disarm(pss_context *ctx);
/* Forgets the run wherever it was armed: the state is closing (thread_lock held, any
 * thread). */
void pss_timer_forget(pss_context *ctx);
/* Makes the armed run's hook look at the clocks now: the cancel flag is set (thread_lock held,
 * the run armed and timed, any thread). */
void pss_timer_cancel(pss_context *ctx);
/* The CPU time the armed run's thread used since it was armed, read from any thread, or -1
 * (thread_lock held, the run armed). */
int64_t pss_timer_run_cpu_ns(pss_context *ctx);

/* Taken around a change of ctx->running (pss_enter_thread, pss_leave_thread); nothing on
 * Linux, where the signal comes on the running thread itself. */
void pss_timer_lock_running(pss_context *ctx);
void pss_timer_unlock_running(pss_context *ctx);

/* Waits while the watchdog sets the hook (ctx->timer.poking); the allocator calls it before a
 * free that finds poking set. Nothing on Linux, where nothing sets the hook from another
 * thread. */
void pss_timer_wait_poke(pss_context *ctx);

/* The backend this build has: "linux" or "portable" (what pss_limits_backend says). */
const char *pss_timer_backend(void);

#endif
