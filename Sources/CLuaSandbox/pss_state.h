/* Sandboxed states and their environments (pss_state.c). */
#ifndef PSS_STATE_H
#define PSS_STATE_H
#include "pss_context.h"

/* Makes a sandboxed state (what pss_state_new in pss.h does): the capped allocator, the limit
 * hook's context, the library as the template of every environment. Returns NULL when even
 * that does not fit. */
pss_context *pss_state_make(size_t memory_limit, void *host);
/* Closes the state and frees the context (what pss_state_close does). */
void pss_state_free(pss_context *ctx);

/* Pushes a run's environment: its own table, which takes each of the template's fields when
 * the run first reads that name (a table of the template becoming the run's own copy the
 * first time the run uses it, a lazy table), and _G (a lazy environment, pss_proxy.h). */
void pss_push_environment(lua_State *L);
/* Names the table on top of the stack `name` for the auxiliary library's function names in
 * errors ("bad argument #1 to 'json.encode'"); leaves the stack as it was. */
void pss_name_module(lua_State *L, const char *name);

#endif
