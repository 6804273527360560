/* math.random and math.randomseed with a generator per environment (pss_lib_math.c). */
#ifndef PSS_LIB_MATH_H
#define PSS_LIB_MATH_H
#include "pss_context.h"

int pss_lib_random(lua_State *L);
int pss_lib_randomseed(lua_State *L);

#endif
