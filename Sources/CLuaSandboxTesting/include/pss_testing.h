/* Test support for the engine (pss_testing.c): not part of the host's API, and linked only into
 * the tests. */
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
/* The bytes the C library's allocator has handed out and not had back (0 where it cannot
 * tell): for tests that look for blocks left behind. */
size_t pss_testing_heap_bytes(void);
/* The Lua type of env[name] (raw; a pss_lua_type), or -1 when it cannot be read: what a chunk
 * left behind, read even after its run failed or was stopped. */
int pss_testing_global_type(pss_context *ctx, int env_ref, const char *name);

#ifdef __cplusplus
}
#endif
#endif
