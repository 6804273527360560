/* string.rep, which checks the size of its result first (pss_lib_string.c). */
#ifndef PSS_LIB_STRING_H
#define PSS_LIB_STRING_H
#include "pss_context.h"

int pss_lib_strrep(lua_State *L);

#endif
