/* The library scripts get (pss_lib.c): the stock functions they may use as they are, the ones
 * charged for the work of their arguments, and the sandbox's own, in the base library and the
 * string, table, math, utf8, coroutine and os tables. */
#ifndef PSS_LIB_H
#define PSS_LIB_H
#include "pss_context.h"

/* Pushes a new table holding the library, the template every run's environment is made from;
 * makes the registry's loaded table hold its tables (where error messages find the names of
 * functions, "bad argument #1 to 'string.rep'"), and empties the real globals, into which the
 * stock base library opened. The state's set-up calls it once. */
void pss_lib_open(lua_State *L);

#endif
