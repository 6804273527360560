/* Guarded coroutine functions (pss_lib_coroutine.c): resume and wrap treat the kill as final. */
#ifndef PSS_LIB_COROUTINE_H
#define PSS_LIB_COROUTINE_H
#include "pss_context.h"

int pss_lib_coresume(lua_State *L);
int pss_lib_cowrap(lua_State *L);

#endif
