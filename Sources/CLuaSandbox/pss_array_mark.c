/* The JSON array mark of pss_array_mark.h: the marked tables are the keys of a weak-keyed table
 * in the registry (ctx->ref_arrays). A plain state has none: nothing is marked there. */
#include "pss_array_mark.h"

void pss_array_mark_open(lua_State *L) {
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  pss_ctx(L)->ref_arrays = luaL_ref(L, LUA_REGISTRYINDEX);
}

int pss_marked_array(lua_State *L, int idx) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL || ctx->ref_arrays == LUA_NOREF) return 0;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_arrays);
  lua_pushvalue(L, idx);
  int marked = lua_rawget(L, -2) != LUA_TNIL;
  lua_pop(L, 2);
  return marked;
}

void pss_mark_array(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL || ctx->ref_arrays == LUA_NOREF) return;
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_arrays);
  lua_pushvalue(L, -2);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}
