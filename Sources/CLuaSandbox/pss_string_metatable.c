/* The string metatable of pss_string_metatable.h. Registry keys: the metatable; the string
 * table of each environment (weak keys), which the metatable's __index is set to when a run
 * enters that environment; the environment entered last (held weakly); and the view
 * getmetatable("") shows for each string table (weak keys), made on the first call. */
#include "pss_lib_charged.h"
#include "pss_proxy.h"
#include "pss_string_metatable.h"

static const char *const STRING_MT_KEY = "pss.string_mt";
static const char *const ENV_STRINGS_KEY = "pss.env_strings";
static const char *const STRING_VIEWS_KEY = "pss.string_views";
static const char *const ENTERED_KEY = "pss.entered_env";

/* The string metatable's arithmetic: it converts its strings, in time that grows with their
 * lengths, so it is charged. */
static const char *const STRING_ARITH[] = {
  "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__idiv", "__unm", NULL,
};

/* Sets registry[key] to a new table whose keys or values (`mode`, "k" or "v") are weak. */
static void new_weak(lua_State *L, const char *key, const char *mode) {
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, key);
}

void pss_string_metatable_open(lua_State *L, int strings) {
  strings = lua_absindex(L, strings);
  lua_pushliteral(L, "");
  lua_getmetatable(L, -1);
  int stock_mt = lua_gettop(L);
  lua_createtable(L, 0, 10);
  int mt = lua_gettop(L);
  for (const char *const *name = STRING_ARITH; *name; name++) {
    lua_getfield(L, stock_mt, *name);
    pss_push_charged(L, lua_tocfunction(L, -1), 0);
    lua_setfield(L, mt, *name);
    lua_pop(L, 1);
  }
  /* until a run enters an environment: a private copy of the library */
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, strings) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
  lua_setfield(L, mt, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, mt, "__metatable");
  lua_pushvalue(L, mt);
  lua_setfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);
  lua_pushvalue(L, mt);
  lua_setmetatable(L, stock_mt - 1);
  lua_settop(L, stock_mt - 2);
  new_weak(L, ENV_STRINGS_KEY, "k");
  new_weak(L, STRING_VIEWS_KEY, "k");
  new_weak(L, ENTERED_KEY, "v");
}

/* Pushes the string table of the environment entered last — what it gave as `string`, given
 * now if it had not been (pss_proxy_push_environment_given: whatever the script assigned to
 * the global since) — remembered for that environment and made the metatable's __index; nil
 * when there is none. */
static void push_entered_strings(lua_State *L) {
  luaL_checkstack(L, 6, "string metatable");
  lua_getfield(L, LUA_REGISTRYINDEX, ENTERED_KEY);
  lua_rawgeti(L, -1, 1);
  lua_remove(L, -2);
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_pushnil(L);
    return;
  }
  int env = lua_gettop(L);
  lua_pushliteral(L, "string");
  pss_proxy_push_environment_given(L, env, -1);
  lua_remove(L, -2);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_getfield(L, LUA_REGISTRYINDEX, ENV_STRINGS_KEY);
    lua_pushvalue(L, env);
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);
    lua_pushliteral(L, "__index");
    lua_pushvalue(L, -3);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  lua_remove(L, env);
}

/* The metatable's __index until the entered environment's string table is known: it is
 * made then (the first method of a string the run calls), and the look-up made in it. */
static int lazy_strings_index(lua_State *L) {
  lua_settop(L, 2);
  push_entered_strings(L);
  if (lua_type(L, -1) != LUA_TTABLE) return 0;
  lua_pushvalue(L, 2);
  lua_gettable(L, -2);
  return 1;
}

void pss_string_metatable_enter(lua_State *L, int env) {
  env = lua_absindex(L, env);
  lua_getfield(L, LUA_REGISTRYINDEX, ENTERED_KEY);
  lua_pushvalue(L, env);
  lua_rawseti(L, -2, 1);
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);
  lua_pushliteral(L, "__index");
  lua_getfield(L, LUA_REGISTRYINDEX, ENV_STRINGS_KEY);
  lua_pushvalue(L, env);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_pushcfunction(L, lazy_strings_index);
  }
  lua_remove(L, -2);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void pss_string_metatable_push_view(lua_State *L) {
  /* the run's string table, made first if the run has not used it yet */
  lua_getfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);
  lua_pushliteral(L, "__index");
  lua_rawget(L, -2);
  int lazy = lua_tocfunction(L, -1) == lazy_strings_index;
  lua_pop(L, 2);
  if (lazy) {
    push_entered_strings(L);
    lua_pop(L, 1);
  }
  int top = lua_gettop(L);
  lua_getfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);     /* top + 1 */
  lua_getfield(L, LUA_REGISTRYINDEX, STRING_VIEWS_KEY);  /* top + 2 */
  lua_pushliteral(L, "__index");
  lua_rawget(L, top + 1);                                /* top + 3: the run's string table */
  lua_pushvalue(L, top + 3);
  if (lua_rawget(L, top + 2) != LUA_TTABLE) {
    lua_pop(L, 1);
    /* the view's fields: the metatable's arithmetic, and the run's string table as __index */
    lua_createtable(L, 0, 9);
    int fields = lua_gettop(L);
    for (const char *const *name = STRING_ARITH; *name; name++) {
      lua_getfield(L, top + 1, *name);
      lua_setfield(L, fields, *name);
    }
    lua_pushvalue(L, top + 3);
    lua_setfield(L, fields, "__index");
    pss_proxy_push_string_view(L, fields);
    lua_remove(L, fields);
    lua_pushvalue(L, top + 3);
    lua_pushvalue(L, -2);
    lua_rawset(L, top + 2);
  }
  lua_replace(L, top + 1);
  lua_settop(L, top + 1);
}
