/* Lazy library tables: a run's environment holds, for each table of the template (string,
 * math, json, ...), an empty proxy that becomes the run's own copy of that table the first
 * time the script uses it. Most scripts use few of them, and copying all of them for every
 * run was most of what a fresh environment cost.
 *
 * The proxy's metatable (one per template table, shared by every run) makes the copy on any
 * access through metamethods (index, assignment, #, pairs), then removes itself, so that the
 * table is from then on what an eager copy would have been. The functions that look past
 * metatables (rawget, rawset, rawlen, next, getmetatable, setmetatable) and the host's
 * encoder make the copy first too, so that no script can tell the proxy from the copy. */
#include "pss_codec.h"
#include "pss_lib.h"

static const char template_key = 't';     /* metatable[&template_key]: the template's table */
static const char metatables_key = 'm';   /* registry[&metatables_key]: template table → metatable
                                            (weak keys) */

/* Copies the template's table into the proxy at `idx` (absolute), keeping what the script set
 * in it already (by rawset), and gives it the template table's metatable (none: the proxy's
 * own is dropped). */
static void fill(lua_State *L, int idx, int mt) {
  lua_pushlightuserdata(L, (void *)&template_key);
  lua_rawget(L, mt);
  pss_copy_into(L, lua_gettop(L), idx);
  lua_pop(L, 1);
}

int pss_fill_lazy(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
  idx = lua_absindex(L, idx);
  int mt = lua_gettop(L);
  lua_pushlightuserdata(L, (void *)&template_key);
  int lazy = lua_rawget(L, mt) == LUA_TTABLE;
  lua_pop(L, 1);
  if (lazy) fill(L, idx, mt);
  lua_settop(L, mt - 1);
  return lazy;
}

/* After fill the proxy has the template table's metatable (or none), so these are what an
 * access to the copy does. */
static int lazy_index(lua_State *L) {
  lua_settop(L, 2);
  pss_fill_lazy(L, 1);
  lua_gettable(L, 1);
  return 1;
}

static int lazy_newindex(lua_State *L) {
  lua_settop(L, 3);
  pss_fill_lazy(L, 1);
  lua_settable(L, 1);
  return 0;
}

static int lazy_len(lua_State *L) {
  pss_fill_lazy(L, 1);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
  return 1;
}

int pss_lib_next(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  pss_fill_lazy(L, 1);
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

/* pairs as stock Lua has it, whose iterator for a table without __pairs is the global next
 * (pss_lib_next), as stock Lua's is its own next */
int pss_lib_pairs(lua_State *L) {
  luaL_checkany(L, 1);
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

static int lazy_pairs(lua_State *L) {
  pss_fill_lazy(L, 1);
  lua_pushcfunction(L, pss_lib_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

int pss_lib_rawget(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checkany(L, 2);
  lua_settop(L, 2);
  pss_fill_lazy(L, 1);
  lua_rawget(L, 1);
  return 1;
}

int pss_lib_rawlen(lua_State *L) {
  int t = lua_type(L, 1);
  luaL_argexpected(L, t == LUA_TTABLE || t == LUA_TSTRING, 1, "table or string");
  pss_fill_lazy(L, 1);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
  return 1;
}

void pss_push_lazy_metatable(lua_State *L, int from) {
  from = lua_absindex(L, from);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &metatables_key) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    /* weak keys: a table the template no longer holds (a value registered again under its
     * name) takes its metatable with it once no environment uses it */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &metatables_key);
  }
  lua_pushvalue(L, from);
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  lua_createtable(L, 0, 5);
  lua_pushcfunction(L, lazy_index);
  lua_setfield(L, -2, "__index");
  pss_set_access_metamethods(L, lazy_newindex, lazy_len, lazy_pairs);
  lua_pushlightuserdata(L, (void *)&template_key);
  lua_pushvalue(L, from);
  lua_rawset(L, -3);
  lua_pushvalue(L, from);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);  /* remembered for the next run */
  lua_remove(L, -2);
}
