/* The functions that look past metatables (pss_lib_raw.c): rawget, rawset, rawlen, next,
 * pairs, getmetatable and setmetatable, each of which sees a proxy as a script must
 * (pss_proxy_fill first). */
#ifndef PSS_LIB_RAW_H
#define PSS_LIB_RAW_H
#include "pss_context.h"

int pss_lib_rawget(lua_State *L);
int pss_lib_rawset(lua_State *L);
int pss_lib_rawlen(lua_State *L);
/* next, and pairs, whose iterator for a table without __pairs is this next, as stock Lua's
 * pairs gives its own next */
int pss_lib_next(lua_State *L);
int pss_lib_pairs(lua_State *L);
/* getmetatable: of a string, the run's view of the string metatable; of a table, what the
 * script set, through the host-owned copies */
int pss_lib_getmetatable(lua_State *L);
int pss_lib_setmetatable(lua_State *L);

#endif
