/* The proxies of pss_proxy.h.
 *
 * A proxy's metatable holds its kind under the tag key, and what the kind needs under keys of
 * its own: a view's name, a lazy proxy's source (the loader of a lazy view, the template's
 * table of a lazy table), what a host-owned metatable stands for. They are light userdata
 * keys, which no script can make. A view's and a lazy table's metamethods are light C
 * functions that find what they need through the proxy's metatable, so a view costs two tables
 * and no closure.
 *
 * A lazy proxy looks, through every way of looking, like one made at once: a lazy view makes
 * its table when any of its metamethods runs (indexing, #, pairs and the iterator pairs gives),
 * or when pss_proxy_fill shows it (encoding for the host, copying); a lazy table becomes its
 * copy when any of its metamethods runs (index, assignment, #), or when pss_proxy_fill meets it
 * (rawget, rawset, rawlen, next, pairs, getmetatable, setmetatable, the encoder), and then
 * drops its metatable for the template table's (none). */
#include <string.h>
#include "pss_array_mark.h"
#include "pss_proxy.h"

static const char tag_key = 't';      /* mt[&tag_key]: the kind */
static const char name_key = 'n';     /* mt[&name_key]: a view's name */
static const char source_key = 's';   /* mt[&source_key]: a lazy view's loader (a host function
                                         id) until it has run; a lazy table's template table */
static const char target_key = 'g';   /* mt[&target_key]: what a host-owned metatable stands
                                         for (false for none) */
static const char lazy_metatables_key = 'm';  /* registry: template table -> its lazy
                                                 metatable (weak keys) */
static const char store_key = 'o';   /* registry: an environment -> the host's table of it
                                        (weak keys) */
static const char pending_key = 'p';  /* mt[name] of a lazy environment while it takes the
                                        name: recorded as nothing yet */
static const char given_key = 'e';   /* registry: a filled environment -> the metatable it had,
                                        which records what it gave (weak keys) */

static _Atomic(pss_proxy_loader) loader_fn = NULL;

void pss_proxy_set_loader(pss_proxy_loader loader) {
  atomic_store_explicit(&loader_fn, loader, memory_order_release);
}

/* Pushes the registry's table under `key`, made with weak keys the first time. */
static void push_weak_keyed(lua_State *L, const char *key) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_pushvalue(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, key);
}

/* The kind the table at `mt` (absolute) holds as a proxy's metatable, or PSS_PROXY_NONE. */
static int kind_of(lua_State *L, int mt) {
  lua_rawgetp(L, mt, &tag_key);
  int kind = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  return kind;
}

static void set_kind(lua_State *L, int mt, int kind) {
  lua_pushinteger(L, kind);
  lua_rawsetp(L, mt, &tag_key);
}

/* Sets __newindex, __len and __pairs of the table on top of the stack. */
static void set_access_metamethods(lua_State *L, lua_CFunction newindex, lua_CFunction len,
                                   lua_CFunction pairs) {
  lua_pushcfunction(L, newindex);
  lua_setfield(L, -2, "__newindex");
  lua_pushcfunction(L, len);
  lua_setfield(L, -2, "__len");
  if (pairs != NULL) {
    lua_pushcfunction(L, pairs);
    lua_setfield(L, -2, "__pairs");
  }
}

/* ---- read-only views --------------------------------------------------------------------- */

/* Makes the table of the lazy view whose metatable is at `mt` (absolute): the loader returns a
 * read-only view, whose table this view shows from now on. */
static void materialize(lua_State *L, int mt) {
  if (lua_rawgetp(L, mt, &source_key) != LUA_TNUMBER) luaL_error(L, "malformed read-only view");
  int32_t loader = (int32_t)lua_tointeger(L, -1);
  lua_pop(L, 1);
  pss_proxy_loader load = atomic_load_explicit(&loader_fn, memory_order_acquire);
  if (load == NULL || load(L, loader) != 1 || lua_type(L, -1) != LUA_TTABLE ||
      !pss_proxy_fill(L, lua_gettop(L), PSS_PROXY_SHOW))
    luaL_error(L, "malformed host value");
  lua_pushliteral(L, "__index");
  lua_pushvalue(L, -2);
  lua_rawset(L, mt);
  lua_pushnil(L);
  lua_rawsetp(L, mt, &source_key);
  set_kind(L, mt, (kind_of(L, mt) & ~PSS_PROXY_SHAPE) | PSS_PROXY_VIEW);
  lua_settop(L, mt);
}

/* Pushes the table the view at 1 shows, or raises the error of a bad argument. */
static void check_view(lua_State *L) {
  if (!pss_proxy_fill(L, 1, PSS_PROXY_SHOW)) luaL_typeerror(L, 1, "read-only view");
}

static int view_newindex(lua_State *L) {
  const char *name = "value";
  if (lua_getmetatable(L, 1) && lua_rawgetp(L, -1, &name_key) == LUA_TSTRING) name = lua_tostring(L, -1);
  return luaL_error(L, "%s is read-only", name);
}

static int view_len(lua_State *L) {
  check_view(L);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, -1));
  return 1;
}

/* next(view, key) over the shown table: what pairs gives for a view */
static int view_next(lua_State *L) {
  lua_settop(L, 2);
  check_view(L);
  lua_insert(L, 2);
  if (lua_next(L, 2) == 0) {
    lua_pushnil(L);
    return 1;
  }
  return 2;
}

static int view_pairs(lua_State *L) {
  lua_pushcfunction(L, view_next);
  lua_pushvalue(L, 1);
  lua_pushnil(L);
  return 3;
}

/* __index of a lazy view: makes the shown table (which is __index from then on) and reads the
 * key from it */
static int lazy_view_index(lua_State *L) {
  lua_settop(L, 2);
  check_view(L);
  lua_insert(L, 2);
  lua_rawget(L, 2);
  return 1;
}

/* Pushes a view's metatable named `name` with room for `fields`, whose __index is the value on
 * top of the stack (taken from it). */
static void push_view_metatable(lua_State *L, const char *name, size_t name_len, int fields, int kind) {
  lua_createtable(L, 0, fields);
  lua_insert(L, -2);
  lua_setfield(L, -2, "__index");
  set_access_metamethods(L, view_newindex, view_len, view_pairs);
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pushlstring(L, name, name_len);
  lua_rawsetp(L, -2, &name_key);
  set_kind(L, lua_gettop(L), kind);
}

void pss_proxy_make_view(lua_State *L, const char *name, size_t name_len) {
  int data = lua_gettop(L);
  lua_newtable(L);  /* the proxy */
  lua_pushvalue(L, data);
  push_view_metatable(L, name, name_len, 7, PSS_PROXY_VIEW);
  lua_setmetatable(L, -2);
  lua_replace(L, data);
}

void pss_proxy_push_lazy_view(lua_State *L, const char *name, size_t name_len, int32_t loader) {
  lua_newtable(L);  /* the proxy */
  lua_pushcfunction(L, lazy_view_index);
  push_view_metatable(L, name, name_len, 8, PSS_PROXY_LAZY_VIEW);
  lua_pushinteger(L, loader);
  lua_rawsetp(L, -2, &source_key);
  lua_setmetatable(L, -2);
}

/* ---- the string metatable's view --------------------------------------------------------- */

/* __newindex of the view: a script cannot change what every request's strings share. */
static int refuse_string_metatable_change(lua_State *L) {
  return luaL_error(L, "the string metatable cannot be changed (strings are shared by every "
                       "request); add methods to 'string' instead");
}

/* next over the view's fields (upvalue 1): what pairs gives for the view */
static int fields_next(lua_State *L) {
  lua_settop(L, 2);
  if (lua_next(L, lua_upvalueindex(1))) return 2;
  lua_pushnil(L);
  return 1;
}

static int fields_pairs(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, fields_next, 1);
  return 1;
}

void pss_proxy_push_string_view(lua_State *L, int fields) {
  fields = lua_absindex(L, fields);
  lua_newtable(L);                 /* the view */
  lua_createtable(L, 0, 5);        /* its metatable */
  lua_pushvalue(L, fields);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, refuse_string_metatable_change);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, fields);
  lua_pushcclosure(L, fields_pairs, 1);
  lua_setfield(L, -2, "__pairs");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  set_kind(L, lua_gettop(L), PSS_PROXY_STRING_METATABLE);
  lua_setmetatable(L, -2);
}

/* ---- copies, and lazy tables ------------------------------------------------------------- */

/* Copies into the table at `to` (absolute) every field of the table at `from` (absolute) that
 * `to` does not hold yet, tables copied as pss_proxy_push_copy copies them; then gives `to` the
 * metatable of `from` (or none) and, when `from` is an empty JSON array, the array mark. */
static void copy_into(lua_State *L, int from, int to) {
  luaL_checkstack(L, 8, "environment too deep");
  lua_pushnil(L);
  while (lua_next(L, from) != 0) {
    lua_pushvalue(L, -2);
    if (lua_rawget(L, to) != LUA_TNIL) {
      lua_pop(L, 2);
      continue;
    }
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TTABLE) {
      pss_proxy_push_copy(L, lua_gettop(L), 0);
      lua_replace(L, -2);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, to);
  }
  if (!lua_getmetatable(L, from)) lua_pushnil(L);
  lua_setmetatable(L, to);
  /* an empty JSON array stays one */
  lua_pushnil(L);
  if (lua_next(L, from) != 0) {
    lua_pop(L, 2);
  } else if (pss_marked_array(L, from)) {
    lua_pushvalue(L, to);
    pss_mark_array(L);
    lua_pop(L, 1);
  }
}

void pss_proxy_push_copy(lua_State *L, int idx, int extra) {
  luaL_checkstack(L, 8, "environment too deep");
  if (pss_proxy_fill(L, idx, PSS_PROXY_SHOW)) {  /* a view: its shown table on top */
    pss_proxy_push_copy(L, lua_gettop(L), 0);
    lua_getmetatable(L, idx);
    lua_rawgetp(L, -1, &name_key);
    size_t len;
    const char *name = lua_tolstring(L, -1, &len);
    lua_pushvalue(L, -3);
    pss_proxy_make_view(L, name, len);
    lua_replace(L, -5);
    lua_pop(L, 3);
    return;
  }
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    n++;
    lua_pop(L, 1);
  }
  int narr = (int)lua_rawlen(L, idx);
  if (narr > n) narr = n;
  lua_createtable(L, narr, n - narr + extra);
  copy_into(L, idx, lua_gettop(L));
}

/* Makes the lazy table at `idx` (absolute), whose metatable is at `mt`, the copy of its
 * template table, keeping what it holds already. */
static void fill_lazy_table(lua_State *L, int idx, int mt) {
  lua_rawgetp(L, mt, &source_key);
  copy_into(L, lua_gettop(L), idx);
  lua_pop(L, 1);
}

/* After the fill the table has the template table's metatable (none), so these do what an
 * access to the copy does. pairs needs no metamethod: it fills the table first. */
static int lazy_table_index(lua_State *L) {
  lua_settop(L, 2);
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  lua_gettable(L, 1);
  return 1;
}

static int lazy_table_newindex(lua_State *L) {
  lua_settop(L, 3);
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  lua_settable(L, 1);
  return 0;
}

static int lazy_table_len(lua_State *L) {
  pss_proxy_fill(L, 1, PSS_PROXY_KEEP);
  lua_pushinteger(L, (lua_Integer)lua_rawlen(L, 1));
  return 1;
}

void pss_proxy_push_lazy_metatable(lua_State *L, int from) {
  from = lua_absindex(L, from);
  /* weak keys: a table the template no longer holds (a value registered again under its
   * name) takes its metatable with it once no environment uses it */
  push_weak_keyed(L, &lazy_metatables_key);
  lua_pushvalue(L, from);
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_remove(L, -2);
    return;
  }
  lua_pop(L, 1);
  lua_createtable(L, 0, 5);
  lua_pushcfunction(L, lazy_table_index);
  lua_setfield(L, -2, "__index");
  set_access_metamethods(L, lazy_table_newindex, lazy_table_len, NULL);
  set_kind(L, lua_gettop(L), PSS_PROXY_LAZY_TABLE);
  lua_pushvalue(L, from);
  lua_rawsetp(L, -2, &source_key);
  lua_pushvalue(L, from);
  lua_pushvalue(L, -2);
  lua_rawset(L, -4);  /* remembered for the next run */
  lua_remove(L, -2);
}

/* ---- lazy environments ------------------------------------------------------------------- */

/* Pushes what the environment at `env` (absolute) holds under the template's field `key` (at
 * `key`, absolute; the template at `template`, absolute) when the script first reads it: the
 * environment itself for "_G", a lazy table for a table without a metatable, a copy for one with
 * a metatable (a read-only view), the value itself for the rest; nil for a name the template
 * does not have. */
static void push_environment_field(lua_State *L, int env, int template, int key) {
  if (lua_type(L, key) == LUA_TSTRING) {
    size_t len;
    const char *name = lua_tolstring(L, key, &len);
    if (len == 2 && name[0] == '_' && name[1] == 'G') {
      lua_pushvalue(L, env);
      return;
    }
  }
  lua_pushvalue(L, key);
  if (lua_rawget(L, template) != LUA_TTABLE) return;
  int from = lua_gettop(L);
  if (lua_getmetatable(L, from)) {
    lua_pop(L, 1);
    pss_proxy_push_copy(L, from, 0);
  } else {
    lua_newtable(L);
    pss_proxy_push_lazy_metatable(L, from);
    lua_setmetatable(L, -2);
  }
  lua_remove(L, from);
}

/* Pushes what the lazy environment's metatable at `mt` (absolute) records under the name at
 * `key` (absolute): nil for a name it has not given nor had assigned, and returns its type. */
static int push_record(lua_State *L, int mt, int key) {
  lua_pushvalue(L, key);
  int type = lua_rawget(L, mt);
  if (type == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == (void *)&pending_key) {
    lua_pop(L, 1);
    lua_pushnil(L);
    type = LUA_TNIL;
  }
  return type;
}

/* Sets the name at `key` of the lazy environment at `env` to the value on top of the stack
 * (popped) and records `given` (the value for a name given, false for one the script assigns
 * first) in its metatable at `mt` (all absolute). Either holds only when both do: the record's
 * key goes in first, as pending, so that what can run out of memory runs before anything is
 * made, and a memory error leaves the name as it was; the last store changes a present field,
 * which allocates nothing. */
static void set_and_record(lua_State *L, int env, int mt, int key, int given) {
  luaL_checkstack(L, 3, "environment too deep");
  lua_pushvalue(L, key);
  lua_pushlightuserdata(L, (void *)&pending_key);
  lua_rawset(L, mt);
  lua_pushvalue(L, key);
  lua_pushvalue(L, -2);
  lua_rawset(L, env);
  lua_pushvalue(L, key);
  if (given) lua_pushvalue(L, -2);
  else lua_pushboolean(L, 0);
  lua_rawset(L, mt);
  lua_pop(L, 1);
}

/* Gives the environment at `env` (absolute; its metatable at `mt`) the field at `key`
 * (absolute) and pushes it; a name given or assigned before (which the script has since set to
 * nil) and a name the template lacks push nil. The metatable records what it gave under the
 * name (false for a name the script assigned first). */
static void give_environment_field(lua_State *L, int env, int mt, int key) {
  if (push_record(L, mt, key) != LUA_TNIL) {
    lua_pop(L, 1);
    lua_pushnil(L);
    return;
  }
  lua_pop(L, 1);
  lua_rawgetp(L, mt, &source_key);
  push_environment_field(L, env, lua_gettop(L), key);
  lua_remove(L, -2);
  if (lua_isnil(L, -1)) return;
  lua_pushvalue(L, -1);
  set_and_record(L, env, mt, key, 1);
}

/* Makes the lazy environment at `idx` (absolute; its metatable at `mt`) a plain table holding
 * every field of the template it has not given or had assigned yet. */
static void fill_environment(lua_State *L, int idx, int mt) {
  luaL_checkstack(L, 8, "environment too deep");
  lua_rawgetp(L, mt, &source_key);
  int template = lua_gettop(L);
  lua_pushliteral(L, "_G");
  give_environment_field(L, idx, mt, lua_gettop(L));
  lua_pop(L, 2);
  lua_pushnil(L);
  while (lua_next(L, template) != 0) {
    lua_pop(L, 1);
    give_environment_field(L, idx, mt, lua_gettop(L));
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  /* what it gave stays known (pss_proxy_push_environment_given) */
  push_weak_keyed(L, &given_key);
  lua_pushvalue(L, idx);
  lua_pushvalue(L, mt);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  lua_pushnil(L);
  lua_setmetatable(L, idx);
}

/* A name the environment does not hold: the template's field, given now. */
static int lazy_environment_index(lua_State *L) {
  lua_settop(L, 2);
  lua_getmetatable(L, 1);
  give_environment_field(L, 1, 3, 2);
  return 1;
}

/* An assignment to a name the environment does not hold: a name of the template it has not
 * given nor had assigned before is remembered as the script's from now on (it is never given),
 * then the assignment is made. A name it gave, which the script set to nil and now assigns
 * again, keeps what it gave (what require returns). */
static int lazy_environment_newindex(lua_State *L) {
  lua_settop(L, 3);
  lua_getmetatable(L, 1);
  int known = 0;
  if (push_record(L, 4, 2) == LUA_TNIL) {
    size_t len = 0;
    const char *name = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &len) : NULL;
    lua_rawgetp(L, 4, &source_key);
    lua_pushvalue(L, 2);
    known = lua_rawget(L, -2) != LUA_TNIL || (name != NULL && len == 2 && memcmp(name, "_G", 2) == 0);
  }
  lua_settop(L, 4);
  if (known) {
    lua_pushvalue(L, 3);
    set_and_record(L, 1, 4, 2, 0);
    return 0;
  }
  lua_settop(L, 3);
  lua_rawset(L, 1);
  return 0;
}

void pss_proxy_push_environment_given(lua_State *L, int env, int key) {
  env = lua_absindex(L, env);
  key = lua_absindex(L, key);
  luaL_checkstack(L, 6, "environment too deep");
  int lazy = 0;
  if (lua_getmetatable(L, env)) {
    lazy = (kind_of(L, lua_gettop(L)) & PSS_PROXY_SHAPE) == PSS_PROXY_LAZY_ENVIRONMENT;
    if (!lazy) lua_pop(L, 1);
  }
  if (!lazy) {
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &given_key) == LUA_TTABLE) {
      lua_pushvalue(L, env);
      lua_rawget(L, -2);
      lua_remove(L, -2);
    } else {
      lua_pop(L, 1);
      lua_pushnil(L);
    }
    if (lua_isnil(L, -1)) {  /* not a run's environment: what it holds */
      lua_pop(L, 1);
      lua_pushvalue(L, key);
      lua_rawget(L, env);
      return;
    }
  }
  int mt = lua_gettop(L);
  int recorded = push_record(L, mt, key);
  if (recorded == LUA_TNIL && lazy) {
    lua_pop(L, 1);
    give_environment_field(L, env, mt, key);
  } else if (recorded == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    /* assigned by the script before it was given: what it would have been, kept from now on */
    lua_pop(L, 1);
    lua_rawgetp(L, mt, &source_key);
    push_environment_field(L, env, lua_gettop(L), key);
    lua_remove(L, -2);
    lua_pushvalue(L, key);
    lua_pushvalue(L, -2);
    lua_rawset(L, mt);
  }
  lua_remove(L, mt);
}

void pss_proxy_push_environment_store(lua_State *L, int env) {
  env = lua_absindex(L, env);
  luaL_checkstack(L, 4, "environment too deep");
  push_weak_keyed(L, &store_key);
  lua_pushvalue(L, env);
  if (lua_rawget(L, -2) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, env);
    lua_pushvalue(L, -2);
    lua_rawset(L, -4);
  }
  lua_remove(L, -2);
}

void pss_proxy_push_lazy_environment(lua_State *L, int template) {
  template = lua_absindex(L, template);
  luaL_checkstack(L, 4, "environment too deep");
  lua_createtable(L, 0, 8);  /* the environment */
  lua_createtable(L, 0, 16);  /* its metatable: the names given and assigned, beside these */
  lua_pushcfunction(L, lazy_environment_index);
  lua_setfield(L, -2, "__index");
  set_access_metamethods(L, lazy_environment_newindex, lazy_table_len, NULL);
  set_kind(L, lua_gettop(L), PSS_PROXY_LAZY_ENVIRONMENT);
  lua_pushvalue(L, template);
  lua_rawsetp(L, -2, &source_key);
  lua_setmetatable(L, -2);
}

/* ---- the one way past a proxy ------------------------------------------------------------ */

int pss_proxy_fill(lua_State *L, int idx, int show) {
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  idx = lua_absindex(L, idx);
  if (!lua_getmetatable(L, idx)) return 0;
  int mt = lua_gettop(L);
  switch (kind_of(L, mt) & PSS_PROXY_SHAPE) {
    case PSS_PROXY_LAZY_TABLE:
      fill_lazy_table(L, idx, mt);
      break;
    case PSS_PROXY_LAZY_ENVIRONMENT:
      fill_environment(L, idx, mt);
      break;
    case PSS_PROXY_LAZY_VIEW:
      if (!show) break;
      materialize(L, mt);
      /* fall through: a view now */
    case PSS_PROXY_VIEW:
      if (!show) break;
      lua_pushliteral(L, "__index");
      lua_rawget(L, mt);
      lua_remove(L, mt);
      return 1;
    default: break;
  }
  lua_settop(L, mt - 1);
  return 0;
}

/* ---- host-owned metatables --------------------------------------------------------------- */

int pss_proxy_push_metatable(lua_State *L, int idx) {
  if (!lua_getmetatable(L, idx)) return 0;
  int mt = lua_gettop(L);
  if (!(kind_of(L, mt) & PSS_PROXY_HOST_METATABLE)) return 1;
  if (lua_rawgetp(L, mt, &target_key) == LUA_TTABLE) {
    lua_remove(L, mt);
    return 1;
  }
  lua_pop(L, 2);
  return 0;
}

void pss_proxy_tag_host_metatable(lua_State *L, int copy, int from, int target) {
  int shape = from ? kind_of(L, from) & PSS_PROXY_SHAPE : PSS_PROXY_NONE;
  set_kind(L, copy, shape | PSS_PROXY_HOST_METATABLE);
  if (target) lua_pushvalue(L, target);
  else lua_pushboolean(L, 0);
  lua_rawsetp(L, copy, &target_key);
}

int pss_proxy_owned_key(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TLIGHTUSERDATA) return 0;
  const void *key = lua_touserdata(L, idx);
  return key == &tag_key || key == &target_key;
}
