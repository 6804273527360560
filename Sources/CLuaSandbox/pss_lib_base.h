/* Guarded base functions (pss_lib_base.c): pcall and xpcall that cannot catch the kill, load
 * that compiles text only, in the script's environment, charging the source it parses, and
 * what the running environment gave under a name (pss_register_given). */
#ifndef PSS_LIB_BASE_H
#define PSS_LIB_BASE_H
#include "pss_context.h"

int pss_lib_pcall(lua_State *L);
int pss_lib_xpcall(lua_State *L);
int pss_lib_load(lua_State *L);
int pss_lib_given(lua_State *L);

#endif
