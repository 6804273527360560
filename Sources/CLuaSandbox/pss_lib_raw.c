/* The raw-access functions of pss_lib_raw.h. Each fills a lazy table before it looks past its
 * metatable (pss_proxy_fill), so that no script can tell the lazy table from its copy; a
 * read-only view is left as it is (raw access sees its empty proxy, as in stock Lua). The
 * rules of setmetatable and rawset are pss_metatable.c's. */
#include "pss_lib_raw.h"
#include "pss_metatable.h"
#include "pss_proxy.h"
#include "pss_string_metatable.h"

int pss_lib_rawget(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  lua_rawget(L, 1);
  return 1;
}

int pss_lib_rawset(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  luaL_checkany(L, 3);
  lua_settop(L, 3);
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  return pss_metatable_rawset(L);
}

int pss_lib_rawlen(lua_State *L) {
  int t = lua_type(L, 1);
  luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
  return 1;
}

int pss_lib_next(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  if (lua_next(L, 1)) return 2;
  lua_pushnil(L);
  return 1;
}

static int finish_pairs(lua_State *L, int status, lua_KContext extra) {
  (void)L;
  (void)status;
  (void)extra;
  return 3;
}

int pss_lib_pairs(lua_State *L) {
  luaL_checkany(L, 1);
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  if (luaL_getmetafield(L, 1, "__pairs") == LUA_TNIL) {
    lua_pushcfunction(L, pss_lib_next);
    lua_pushvalue(L, 1);
    lua_pushnil(L);
    return 3;
  }
  lua_pushvalue(L, 1);
  lua_callk(L, 1, 3, 0, finish_pairs);
  return 3;
}

int pss_lib_getmetatable(lua_State *L) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TSTRING) {
    lua_settop(L, 1);
    pss_string_metatable_push_view(L);
    return 1;
  }
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  if (!pss_proxy_push_metatable(L, 1)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushliteral(L, "__metatable");
  if (lua_rawget(L, -2) == LUA_TNIL) lua_pop(L, 1);
  return 1;
}

int pss_lib_setmetatable(lua_State *L) {
  int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  lua_settop(L, 2);
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  pss_proxy_fill(L, 2, PSS_PROXY_KEEP);
  return pss_metatable_set(L);
}
