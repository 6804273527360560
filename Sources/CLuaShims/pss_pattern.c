/* Placeholder until the project's own matcher lands: calls the stock functions, which the
 * setup keeps in the registry. */
#include "pss_lib.h"

static int call_stock(lua_State *L, const char *name) {
  lua_getfield(L, LUA_REGISTRYINDEX, name);
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

int pss_str_find(lua_State *L) { return call_stock(L, "pss.stock.find"); }
int pss_str_match(lua_State *L) { return call_stock(L, "pss.stock.match"); }
int pss_str_gmatch(lua_State *L) { return call_stock(L, "pss.stock.gmatch"); }
int pss_str_gsub(lua_State *L) { return call_stock(L, "pss.stock.gsub"); }
