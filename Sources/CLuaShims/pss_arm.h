/* Arming a run's limits, and the running Lua thread (pss_arm.c; the public part is in pss.h). */
#ifndef PSS_ARM_H
#define PSS_ARM_H
#include "pss_internal.h"

/* Marks `co` as the running Lua thread and returns the one it replaces; hooks `co` when a limit
 * timer's alarm came already. The guarded resume calls it around lua_resume. */
lua_State *pss_enter_thread(pss_context *ctx, lua_State *co);
/* Marks `previous` as running again after a resume returned. */
void pss_leave_thread(pss_context *ctx, lua_State *previous);
/* Forgets the run armed on this state, wherever it was armed (the state is closing). */
void pss_limits_forget(pss_context *ctx);

#endif
