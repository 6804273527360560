/* Test support for the shims: not part of the host's API, and linked only into the tests. */
#ifndef PSS_TESTING_H
#define PSS_TESTING_H

#include <stddef.h>
#include "pss.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs source text in a plain state (stock libraries, no limits, no hook) and returns the
 * Lua status. For benchmarks that compare with stock Lua. */
int pss_testing_run_plain(const char *source, size_t length);
/* The bytes the host-call scratch buffers of a state hold now (outside the state's memory
 * limit). */
size_t pss_testing_scratch_bytes(pss_context *ctx);
/* Whether a hook is set on the main thread (bit 0) and on the Lua thread that runs now
 * (bit 1). */
int pss_testing_hooked(pss_context *ctx);
/* Whether the allocator judges a table's growth by the keys it holds (pss_alloc.h); a state
 * must have been made first. */
int pss_testing_reads_hash_parts(void);

/* Runs a Lua chunk in a plain state (luaL_newstate with every standard library, no sandbox
 * and no limits) where the global table `own` holds the project's find, match, gmatch and
 * gsub, next to the stock ones in `string`. The chunk must return a count and a string.
 * Returns the count and appends the string to `report`; on an error (the chunk failed, or
 * returned something else) returns -1 and appends the error message. Never raises. */
long pss_testing_pattern_compare(const char *source, size_t length, pss_buffer *report);

/* Sets the global table `own` of the plain state `L` to the project's find, match, gmatch and
 * gsub (what pss_testing_pattern_compare's chunks and the pattern fuzz target compare with
 * the stock ones). May raise, as any Lua call in a plain state: call it from C only. */
struct lua_State;
void pss_testing_open_own_patterns(struct lua_State *L);

#ifdef __cplusplus
}
#endif
#endif
