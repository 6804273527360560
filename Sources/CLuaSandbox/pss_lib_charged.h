/* Stock functions called through a charge of the work their arguments make
 * (pss_lib_charged.c). */
#ifndef PSS_LIB_CHARGED_H
#define PSS_LIB_CHARGED_H
#include "pss_context.h"

/* Pushes stock function `f` wrapped in a charge of the work its arguments make: the lengths
 * of its strings and tables, its argument count, and with `span` the span between its integer
 * arguments 2 and 3. `f` must use no upvalues. */
void pss_push_charged(lua_State *L, lua_CFunction f, int span);

#endif
