/* The capped allocator (pss_alloc.c). */
#ifndef PSS_ALLOC_H
#define PSS_ALLOC_H
#include "pss_context.h"

/* The capped allocator (lua_Alloc) whose user data is the context. Besides the memory limit it
 * refuses, as the CPU limit, a table's new hash part when moving the keys into it could cost
 * more than the CPU budget left (see pss_alloc.c). */
void *pss_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* Learns, once per process, where Lua allocates a table's hash part from (the allocator is
 * told no more than a size and no type): makes a table with a small hash part. May raise (a
 * memory error); pss_state_new calls it while it sets the state up. */
void pss_alloc_probe(lua_State *L);

/* Whether the allocator found where Lua makes hash parts and reads their keys as it expects
 * (pss_alloc_probe ran and its check passed): bit 0 for integer keys, bit 1 for float keys. A
 * growth is judged by the keys it can read, else by the worst case. */
int pss_alloc_reads_hash_parts(void);

/* Lets go of what the allocator keeps of the state (its hash parts, its freed small blocks):
 * the state is closed. */
void pss_alloc_forget(pss_context *ctx);

/* Refuses an allocation that would pass the memory limit: trips `memory` and raises the
 * kill when `bytes` more would not fit even after a full garbage collection. For C functions
 * that know their result size up front (string.rep). */
void pss_reserve(lua_State *L, size_t bytes);

#endif
