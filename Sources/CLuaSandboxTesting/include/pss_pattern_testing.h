/* Test support for the pattern matcher (pss_pattern_testing.c): the project's find, match,
 * gmatch and gsub beside stock Lua's. Linked only into the tests. */
#ifndef PSS_PATTERN_TESTING_H
#define PSS_PATTERN_TESTING_H

#include <stddef.h>
#include "pss.h"

#ifdef __cplusplus
extern "C" {
#endif

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
