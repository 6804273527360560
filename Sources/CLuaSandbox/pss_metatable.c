/* Metatables whose mode cannot change: what setmetatable and rawset do (pss_lib_raw.c checks
 * their arguments and fills lazy tables first).
 *
 * The collector reads a metatable's __mode at every cycle, and weak keys make a table an
 * ephemeron table, which it marks in its atomic step one link per pass: a chain of keys costs
 * time quadratic in its length, where no hook runs and no budget can be checked. setmetatable
 * refuses weak keys; this file makes sure that the mode a table has when setmetatable sees it
 * is the mode it keeps.
 *
 * - A metatable that has a __mode when setmetatable is given it is not used itself: the
 *   table gets a host-owned copy of it, which no script can reach, so later changes to the
 *   script's table change nothing.
 * - Any other table given to setmetatable becomes a live metatable. It is guarded: its own
 *   metatable gets a __newindex that refuses the key __mode (and otherwise does what the
 *   script's __newindex, if any, does, or a raw set), and rawset refuses __mode on it.
 * - A guarded table keeps its guard when a script sets its metatable: it gets a host-owned
 *   copy of the script's metatable with the guard's __newindex.
 *
 * Every host-owned metatable is a proxy of the table the script gave (pss_proxy.h: tagged
 * PSS_PROXY_HOST_METATABLE, standing for that table or for none): getmetatable returns that
 * table (or its __metatable), and setmetatable's protection is that table's. The copies leave out __gc: finalizers are refused, and a __gc
 * added to a table after setmetatable has no effect in stock Lua either.
 *
 * A copy follows the table it stands for: a metamethod field (a key that starts with "__")
 * that the script adds to that table afterwards — by assignment, which the table's guard sees,
 * or by rawset — is written into every copy too, so that `setmetatable(C, C); C.__index = C`,
 * or a __call given to a class's metatable later, works as in stock Lua. The copies of a table
 * are listed in the registry (weak values: a list lives as long as one of its copies). What no
 * guard sees is not followed: a field the table already had, changed by assignment, and the
 * fields of a metatable that had a __mode. */
#include <string.h>
#include "pss_charge.h"
#include "pss_metatable.h"
#include "pss_proxy.h"

/* The registry key of the shared guard: the metatable of a guarded table with none of its
 * own. */
static const char *const BARE_GUARD_KEY = "pss.metatable_guard";

static int is_mode_key(lua_State *L, int idx) {
  size_t len;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  const char *s = lua_tolstring(L, idx, &len);
  return len == 6 && memcmp(s, "__mode", 6) == 0;
}

static int refuse_mode(lua_State *L) {
  return luaL_error(L, "cannot set __mode on a table in use as a metatable (the collector reads "
                       "it at any time); set __mode before setmetatable");
}

/* The registry key of the copies' lists: table -> list of the host-owned copies standing for
 * it (both weak-valued); and the key under which a copy holds its list. */
static const char *const COPIES_KEY = "pss.metatable_copies";
static const char copies_list_key = 0;

/* Pushes the weak-valued metatable of the lists and of the map. */
static void push_weak_values(lua_State *L) {
  if (luaL_newmetatable(L, "pss.weak_values")) {
    lua_pushliteral(L, "v");
    lua_setfield(L, -2, "__mode");
  }
}

/* Whether the key at `idx` is a string that starts with "__": what the VM looks metamethods up
 * by. */
static int is_event_key(lua_State *L, int idx) {
  size_t len;
  if (lua_type(L, idx) != LUA_TSTRING) return 0;
  const char *s = lua_tolstring(L, idx, &len);
  return len > 2 && s[0] == '_' && s[1] == '_';
}

static int guard_newindex(lua_State *L);

/* Lists the copy on top (host-owned, standing for the table at `script_mt`, absolute) among
 * that table's copies. */
static void list_copy(lua_State *L, int script_mt) {
  int copy = lua_gettop(L);
  luaL_checkstack(L, 4, "setmetatable");
  if (lua_getfield(L, LUA_REGISTRYINDEX, COPIES_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    push_weak_values(L);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, COPIES_KEY);
  }
  int map = lua_gettop(L);
  lua_pushvalue(L, script_mt);
  if (lua_rawget(L, map) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    push_weak_values(L);
    lua_setmetatable(L, -2);
    lua_pushvalue(L, script_mt);
    lua_pushvalue(L, -2);
    lua_rawset(L, map);
  }
  int list = lua_gettop(L);
  /* a border's next slot is empty: a live copy is never written over */
  lua_pushvalue(L, copy);
  lua_rawseti(L, list, (lua_Integer)lua_rawlen(L, list) + 1);
  lua_pushlightuserdata(L, (void *)&copies_list_key);
  lua_pushvalue(L, list);
  lua_rawset(L, copy);
  lua_settop(L, copy);
}

/* Writes the metamethod field `key` (at `k`, absolute) of the table at `t` (absolute), as the
 * table holds it now, into every copy standing for that table. A __newindex goes into a copy's
 * guard (what it does besides refusing __mode); __mode and __gc are never followed. */
static void follow_field(lua_State *L, int t, int k) {
  if (!is_event_key(L, k) || is_mode_key(L, k)) return;
  const char *key = lua_tostring(L, k);
  if (strcmp(key, "__gc") == 0) return;
  luaL_checkstack(L, 6, "metatable");
  int top = lua_gettop(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, COPIES_KEY) != LUA_TTABLE) { lua_settop(L, top); return; }
  lua_pushvalue(L, t);
  if (lua_rawget(L, -2) != LUA_TTABLE) { lua_settop(L, top); return; }
  int list = lua_gettop(L);
  lua_pushvalue(L, k);
  lua_rawget(L, t);
  int value = lua_gettop(L);
  int newindex = strcmp(key, "__newindex") == 0;
  lua_pushnil(L);
  while (lua_next(L, list) != 0) {
    pss_charge(L, PSS_CHARGE_NEXT);
    int copy = lua_gettop(L);
    lua_pushliteral(L, "__newindex");
    int guarded = newindex && lua_rawget(L, copy) == LUA_TFUNCTION &&
                  lua_tocfunction(L, -1) == guard_newindex;
    if (guarded) {
      /* the guard does what the script's __newindex does: a guard given is its own target */
      if (lua_tocfunction(L, value) == guard_newindex) lua_getupvalue(L, value, 1);
      else lua_pushvalue(L, value);
      lua_setupvalue(L, -2, 1);
    } else {
      lua_pushvalue(L, k);
      lua_pushvalue(L, value);
      lua_rawset(L, copy);
    }
    lua_settop(L, copy - 1);
  }
  lua_settop(L, top);
}

/* After the script's __newindex returned (the stack: table, key): what it put in the table is
 * followed by the table's copies. */
static int finish_newindex(lua_State *L, int status, lua_KContext extra) {
  (void)status; (void)extra;
  follow_field(L, 1, 2);
  return 0;
}

/* The __newindex of a table in use as a metatable: refuses the key __mode, and otherwise does
 * what its upvalue, the script's __newindex (nil for none), does. */
static int guard_newindex(lua_State *L) {
  lua_settop(L, 3);
  if (is_mode_key(L, 2)) return refuse_mode(L);
  int t = lua_type(L, lua_upvalueindex(1));
  if (t == LUA_TNIL) {
    lua_pushvalue(L, 2);
    lua_insert(L, 2);
    lua_rawset(L, 1);
    follow_field(L, 1, 2);
  } else if (t == LUA_TFUNCTION) {
    luaL_checkstack(L, 4, "__newindex");
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    lua_callk(L, 3, 0, 0, finish_newindex);
    return finish_newindex(L, LUA_OK, 0);
  } else {
    /* as stock Lua does with a __newindex that is not a function: the assignment is made on
     * that value, its own metamethods (or its error) included */
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_replace(L, 1);
    lua_settable(L, 1);
  }
  return 0;
}

/* Whether the table at `idx` is guarded: its metatable's __newindex is the guard. */
static int is_guarded(lua_State *L, int idx) {
  if (!lua_getmetatable(L, idx)) return 0;
  lua_pushliteral(L, "__newindex");
  lua_rawget(L, -2);
  int guarded = lua_tocfunction(L, -1) == guard_newindex;
  lua_pop(L, 2);
  return guarded;
}

/* Pushes the shared guard. */
static void push_bare_guard(lua_State *L) {
  if (lua_getfield(L, LUA_REGISTRYINDEX, BARE_GUARD_KEY) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_createtable(L, 0, 2);
  lua_pushnil(L);
  lua_pushcclosure(L, guard_newindex, 1);
  lua_setfield(L, -2, "__newindex");
  pss_proxy_tag_host_metatable(L, lua_gettop(L), 0, 0);
  lua_pushvalue(L, -1);
  lua_setfield(L, LUA_REGISTRYINDEX, BARE_GUARD_KEY);
}

static void refuse_weak_keys(lua_State *L) {
  luaL_error(L, "setmetatable: weak keys (__mode 'k') are not allowed in the sandbox "
                "(their collection cannot be bounded); use weak values or none");
}

/* Whether the value on top is a mode with weak keys, as the collector reads it. */
static int weak_keyed(lua_State *L) {
  return lua_type(L, -1) == LUA_TSTRING && strchr(lua_tostring(L, -1), 'k') != NULL;
}

/* Pushes a host-owned copy of the table at `from` (absolute) standing for `script_mt`
 * (absolute, or 0 for false), without __gc; with `guard`, its __newindex is the guard, which
 * does what the copied __newindex did. The copy's work is charged. */
static void push_host_copy(lua_State *L, int from, int script_mt, int guard) {
  luaL_checkstack(L, 8, "setmetatable");
  lua_newtable(L);
  int copy = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, from) != 0) {
    pss_charge(L, PSS_CHARGE_NEXT);
    if (pss_proxy_owned_key(L, -2) ||
        (lua_type(L, -2) == LUA_TLIGHTUSERDATA && lua_touserdata(L, -2) == &copies_list_key)) {
      lua_pop(L, 1);
      continue;
    }
    if (lua_type(L, -2) == LUA_TSTRING) {
      const char *k = lua_tostring(L, -2);
      if (strcmp(k, "__gc") == 0) {
        lua_pop(L, 1);
        continue;
      }
      if (strcmp(k, "__mode") == 0 && weak_keyed(L)) refuse_weak_keys(L);
      if (guard && strcmp(k, "__newindex") == 0) {
        /* a guard copied from a guard does what the first one did */
        if (lua_tocfunction(L, -1) == guard_newindex) {
          lua_getupvalue(L, -1, 1);
          lua_replace(L, -2);
        }
        lua_pushcclosure(L, guard_newindex, 1);
      }
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, copy);
  }
  if (guard) {
    lua_pushliteral(L, "__newindex");
    if (lua_rawget(L, copy) == LUA_TNIL) {
      lua_pushnil(L);
      lua_pushcclosure(L, guard_newindex, 1);
      lua_setfield(L, copy, "__newindex");
    }
    lua_pop(L, 1);
  }
  pss_proxy_tag_host_metatable(L, copy, from, script_mt);
  if (script_mt) list_copy(L, script_mt);
}

/* Guards the table at `idx` (absolute), which is about to be a live metatable. */
static void guard_table(lua_State *L, int idx) {
  if (is_guarded(L, idx)) return;
  if (!lua_getmetatable(L, idx)) {
    push_bare_guard(L);
    lua_setmetatable(L, idx);
    return;
  }
  int real = lua_gettop(L);
  /* the script's own table (a live metatable, so guarded itself), or the one a host-owned copy
   * stands for: copied again, standing for the same table */
  if (pss_proxy_push_metatable(L, idx)) push_host_copy(L, real, lua_gettop(L), 1);
  else push_host_copy(L, real, 0, 1);
  lua_setmetatable(L, idx);
  lua_settop(L, real - 1);
}

int pss_metatable_set(lua_State *L) {
  int t = lua_type(L, 2);
  int has_mode = 0;
  if (t == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    int has_gc = lua_rawget(L, 2) != LUA_TNIL;
    lua_pop(L, 1);
    if (has_gc)
      return luaL_error(L, "setmetatable: a metatable with a __gc field is not allowed "
                           "(finalizers are disabled in the sandbox)");
    lua_pushliteral(L, "__mode");
    has_mode = lua_rawget(L, 2) != LUA_TNIL;
    if (weak_keyed(L)) refuse_weak_keys(L);
    lua_pop(L, 1);
  }
  int guarded = 0;
  if (lua_getmetatable(L, 1)) {  /* a new table has none: the common case is quick */
    lua_pop(L, 1);
    if (pss_proxy_push_metatable(L, 1)) {
      lua_pushliteral(L, "__metatable");
      if (lua_rawget(L, -2) != LUA_TNIL) return luaL_error(L, "cannot change a protected metatable");
      lua_pop(L, 2);
    }
    guarded = is_guarded(L, 1);
  }
  if (t == LUA_TTABLE && !guarded && !has_mode) {
    guard_table(L, 2);
    guarded = is_guarded(L, 1);  /* setmetatable(t, t): t is guarded now */
  }
  if (t == LUA_TNIL) {
    if (guarded) push_bare_guard(L);
    else lua_pushnil(L);
  } else if (guarded || has_mode) {
    push_host_copy(L, 2, 2, guarded);
  } else {
    lua_pushvalue(L, 2);
  }
  lua_setmetatable(L, 1);
  lua_settop(L, 1);
  return 1;
}

int pss_metatable_rawset(lua_State *L) {
  if (is_mode_key(L, 2) && is_guarded(L, 1)) return refuse_mode(L);
  lua_pushvalue(L, 2);
  lua_insert(L, 2);
  lua_rawset(L, 1);
  follow_field(L, 1, 2);
  lua_settop(L, 1);
  return 1;
}
