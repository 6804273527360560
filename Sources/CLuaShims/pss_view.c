/* Read-only views: an empty proxy whose metatable shows a table (its __index) and refuses
 * writes with the view's name. The metamethods are light C functions that find the shown
 * table through the proxy's metatable, so a view costs two tables and no closures.
 *
 * A lazy view shows a table the host makes only when the script first looks: until then its
 * metatable holds the host function that makes it (under loader_key) and its __index is
 * lazy_index. Every way of looking (indexing, #, pairs, the iterator pairs gives, encoding
 * for the host, copying) goes through push_shown, which makes the table first, so a lazy view
 * cannot be told from one made at once. */
#include "pss_codec.h"
#include "pss_host.h"

static const char name_key = 'n';    /* metatable[&name_key]: the view's name */
static const char loader_key = 'l';  /* metatable[&loader_key]: the maker's host function id,
                                        until it has run */

static int ro_newindex(lua_State *L);

/* Whether the table at `mt` (absolute) is a view's metatable. A view in use as a metatable is
 * guarded: the guard holds the view's __newindex. */
static int is_view_metatable(lua_State *L, int mt) {
  lua_pushliteral(L, "__newindex");
  lua_rawget(L, mt);
  if (lua_tocfunction(L, -1) == pss_guard_newindex) {
    lua_getupvalue(L, -1, 1);
    lua_replace(L, -2);
  }
  int view = lua_tocfunction(L, -1) == ro_newindex;
  lua_pop(L, 1);
  return view;
}

/* Makes the shown table of the lazy view whose metatable is at `mt` (absolute): the loader
 * returns a read-only view, whose shown table this view shows from now on. */
static void materialize(lua_State *L, int mt) {
  lua_pushlightuserdata(L, (void *)&loader_key);
  if (lua_rawget(L, mt) != LUA_TNUMBER) luaL_error(L, "malformed read-only view");
  int32_t loader = (int32_t)lua_tointeger(L, -1);
  lua_pop(L, 1);
  if (pss_call_without_arguments(L, loader) != 1 || lua_type(L, -1) != LUA_TTABLE ||
      !pss_read_only_view(L, lua_gettop(L)))
    luaL_error(L, "malformed host value");
  lua_pushliteral(L, "__index");
  lua_pushvalue(L, -2);
  lua_rawset(L, mt);
  lua_pushlightuserdata(L, (void *)&loader_key);
  lua_pushnil(L);
  lua_rawset(L, mt);
  lua_settop(L, mt);
}

/* Pushes the table the view at `idx` shows, made first when the view is lazy; returns 0 and
 * pushes nothing when the value at `idx` is not a view. */
static int push_shown(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (!lua_getmetatable(L, idx)) return 0;
  int mt = lua_gettop(L);
  if (!is_view_metatable(L, mt)) {
    lua_pop(L, 1);
    return 0;
  }
  lua_pushliteral(L, "__index");
  if (lua_rawget(L, mt) != LUA_TTABLE) {
    lua_pop(L, 1);
    materialize(L, mt);
    lua_pushliteral(L, "__index");
    lua_rawget(L, mt);
  }
  lua_remove(L, mt);
  return 1;
}

static void check_view(lua_State *L, int idx) {
  if (!push_shown(L, idx)) luaL_typeerror(L, idx, "read-only view");
}

static int ro_newindex(lua_State *L) {
  const char *name = "value";
  if (lua_getmetatable(L, 1)) {
    lua_pushlightuserdata(L, (void *)&name_key);
    if (lua_rawget(L, -2) == LUA_TSTRING) name = lua_tostring(L, -1);
  }
  return luaL_error(L, "%s is read-only", name);
}

static int ro_len(lua_State *L) {
  check_view(L, 1);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
  return 1;
}

/* next(view, key) over the shown table: what pairs gives for a view */
static int ro_next(lua_State *L) {
  lua_settop(L, 2);
  check_view(L, 1);
  lua_insert(L, 2);
  if (lua_next(L, 2) == 0) {
    lua_pushnil(L);
    return 1;
  }
  return 2;
}

static int ro_pairs(lua_State *L) {
  lua_pushcfunction(L, ro_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* __index of a lazy view: makes the shown table (which is __index from then on) and reads
 * the key from it */
static int lazy_index(lua_State *L) {
  lua_settop(L, 2);
  check_view(L, 1);
  lua_insert(L, 2);
  lua_rawget(L, 2);
  return 1;
}

void pss_set_access_metamethods(lua_State *L, lua_CFunction newindex, lua_CFunction len,
                                lua_CFunction pairs) {
  lua_pushcfunction(L, newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, len);
  lua_setfield(L, -2, "__len");
  lua_pushcfunction(L, pairs);
  lua_setfield(L, -2, "__pairs");
}

int pss_read_only_view(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (!push_shown(L, idx)) return 0;
  lua_getmetatable(L, idx);
  lua_pushlightuserdata(L, (void *)&name_key);
  lua_rawget(L, -2);
  lua_remove(L, -2);
  lua_insert(L, -2);  /* name, shown */
  return 1;
}

/* Pushes a metatable for a view named `name`, with `index` as its __index (which is left on
 * top of the stack before the call and taken from it). */
static void push_view_metatable(lua_State *L, const char *name, size_t name_len, int fields) {
  lua_createtable(L, 0, fields);
  lua_insert(L, -2);
  lua_setfield(L, -2, "__index");
  pss_set_access_metamethods(L, ro_newindex, ro_len, ro_pairs);
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pushlightuserdata(L, (void *)&name_key);
  lua_pushlstring(L, name, name_len);
  lua_rawset(L, -3);
}

void pss_make_read_only(lua_State *L, const char *name, size_t name_len) {
  int data = lua_gettop(L);
  lua_newtable(L);  /* the proxy */
  lua_pushvalue(L, data);
  push_view_metatable(L, name, name_len, 6);
  lua_setmetatable(L, -2);
  lua_replace(L, data);
}

void pss_push_lazy_view(lua_State *L, const char *name, size_t name_len, int32_t loader) {
  lua_newtable(L);  /* the proxy */
  lua_pushcfunction(L, lazy_index);
  push_view_metatable(L, name, name_len, 7);
  lua_pushlightuserdata(L, (void *)&loader_key);
  lua_pushinteger(L, loader);
  lua_rawset(L, -3);
  lua_setmetatable(L, -2);
}
