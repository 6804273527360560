/* Sandboxed states: creation with the limits installed, the safe library as a template, and
 * a fresh environment per run copied from that template. */
#include <stdlib.h>
#include <string.h>
#include <lualib.h>
#include "pss_codec.h"
#include "pss_host.h"
#include "pss_lib.h"
#include "pss_lib_sort.h"

/* The stock functions scripts get as they are: their work does not grow with their
 * arguments. */
static const char *const BASE_NAMES[] = {
  "assert", "error", "ipairs", "select", "tostring", "type", "rawequal", "_VERSION", NULL,
};
static const char *const STRING_NAMES[] = {"len", NULL};
static const char *const COROUTINE_NAMES[] = {
  "create", "isyieldable", "running", "status", "yield", NULL,
};
static const char *const OS_NAMES[] = {"clock", NULL};
static const char *const OS_CHARGED[] = {"difftime", NULL};
static const char *const UTF8_NAMES[] = {"charpattern", "codes", NULL};

/* Stock functions whose work grows with their arguments: they get a charge of it first. A
 * number argument given as a string counts too: converting a numeric string of megabytes
 * takes milliseconds, in one C call. */
static const char *const BASE_CHARGED[] = {"tonumber", "select", "error", NULL};
static const char *const STRING_CHARGED[] = {
  "byte", "char", "format", "lower", "pack", "packsize", "reverse", "sub", "unpack", "upper",
  NULL,
};
static const char *const TABLE_CHARGED[] = {"pack", NULL};
static const char *const UTF8_CHARGED[] = {"char", "codepoint", "len", "offset", NULL};
/* The string metatable's arithmetic ("10" + 1): they convert their strings, in time that grows
 * with the strings' lengths, so they are charged too. */
static const char *const STRING_ARITH[] = {
  "__add", "__sub", "__mul", "__div", "__mod", "__pow", "__idiv", "__unm", NULL,
};

/* Registry keys: the string metatable; the string table of each environment (weak keys), which
 * the metatable's __index is set to when a run enters that environment; and the table that
 * getmetatable("") shows for each string table (weak keys), made on the first call. */
static const char *const STRING_MT_KEY = "pss.string_mt";
static const char *const ENV_STRINGS_KEY = "pss.env_strings";
static const char *const STRING_VIEWS_KEY = "pss.string_views";

/* Copies the listed fields of the table at `from` into the table at `to`. */
static void copy_fields(lua_State *L, int from, int to, const char *const *names) {
  for (; *names; names++) {
    lua_getfield(L, from, *names);
    lua_setfield(L, to, *names);
  }
}

/* Copies the listed functions of the table at `from` into the table at `to`, each wrapped in
 * a charge of its work (with the span of arguments 2 and 3 when `span`). */
static void copy_charged(lua_State *L, int from, int to, const char *const *names, int span) {
  for (; *names; names++) {
    lua_getfield(L, from, *names);
    pss_push_charged(L, lua_tocfunction(L, -1), span);
    lua_setfield(L, to, *names);
    lua_pop(L, 1);
  }
}

/* Copies every field of the table at `from` into the table on top of the stack. */
static void copy_all(lua_State *L, int from) {
  lua_pushnil(L);
  while (lua_next(L, from) != 0) {
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

static void set_function(lua_State *L, int table, const char *name, lua_CFunction f) {
  lua_pushcfunction(L, f);
  lua_setfield(L, table, name);
}

/* The same, with the charge of its arguments first (pss_push_charged). */
static void set_charged(lua_State *L, int table, const char *name, lua_CFunction f) {
  pss_push_charged(L, f, 0);
  lua_setfield(L, table, name);
}

/* Copies every field of the table at `from` into the table on top of the stack, C functions
 * without upvalues wrapped in a charge of their arguments (math.abs of a numeric string of
 * megabytes converts all of it). */
static void copy_all_charged(lua_State *L, int from) {
  lua_pushnil(L);
  while (lua_next(L, from) != 0) {
    lua_CFunction f = lua_tocfunction(L, -1);
    if (f != NULL && lua_getupvalue(L, -1, 1) == NULL) {
      lua_pop(L, 1);
      pss_push_charged(L, f, 0);
    } else if (f != NULL) {
      lua_pop(L, 1);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

/* Sets registry[key] to a new table with weak keys. */
static void new_weak_keyed(lua_State *L, const char *key) {
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_setfield(L, LUA_REGISTRYINDEX, key);
}

/* Opens one standard library into the stack top without touching the globals. */
static void open_lib(lua_State *L, const char *name, lua_CFunction open) {
  luaL_requiref(L, name, open, 0);
}

static int null_tostring(lua_State *L) {
  lua_pushliteral(L, "null");
  return 1;
}

/* Builds the library template (registry) and the locked string metatable. */
static int p_setup(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  luaL_checkstack(L, 40, "setup");
  pss_alloc_probe(L);
  pss_host_open(L);

  /* the standard libraries, opened into the registry's loaded table only */
  luaL_requiref(L, "_G", luaopen_base, 0);
  int G = lua_gettop(L);
  open_lib(L, LUA_STRLIBNAME, luaopen_string);
  int S = lua_gettop(L);
  open_lib(L, LUA_TABLIBNAME, luaopen_table);
  int T = lua_gettop(L);
  open_lib(L, LUA_MATHLIBNAME, luaopen_math);
  int M = lua_gettop(L);
  open_lib(L, LUA_UTF8LIBNAME, luaopen_utf8);
  int U = lua_gettop(L);
  open_lib(L, LUA_COLIBNAME, luaopen_coroutine);
  int C = lua_gettop(L);
  open_lib(L, LUA_OSLIBNAME, luaopen_os);
  int O = lua_gettop(L);

  /* the template every run's environment is copied from */
  lua_newtable(L);
  int E = lua_gettop(L);
  copy_fields(L, G, E, BASE_NAMES);
  copy_charged(L, G, E, BASE_CHARGED, 0);
  set_function(L, E, "pcall", pss_lib_pcall);
  set_function(L, E, "xpcall", pss_lib_xpcall);
  set_function(L, E, "setmetatable", pss_lib_setmetatable);
  set_function(L, E, "rawset", pss_lib_rawset);
  set_function(L, E, "rawget", pss_lib_rawget);
  set_function(L, E, "rawlen", pss_lib_rawlen);
  set_function(L, E, "next", pss_lib_next);
  set_function(L, E, "pairs", pss_lib_pairs);
  set_function(L, E, "getmetatable", pss_lib_getmetatable);
  set_function(L, E, "load", pss_lib_load);

  lua_newtable(L);
  copy_fields(L, S, lua_gettop(L), STRING_NAMES);
  copy_charged(L, S, lua_gettop(L), STRING_CHARGED, 0);
  set_charged(L, lua_gettop(L), "rep", pss_lib_strrep);
  set_charged(L, lua_gettop(L), "find", pss_str_find);
  set_charged(L, lua_gettop(L), "match", pss_str_match);
  set_charged(L, lua_gettop(L), "gmatch", pss_str_gmatch);
  set_charged(L, lua_gettop(L), "gsub", pss_str_gsub);
  int SS = lua_gettop(L);
  lua_pushvalue(L, SS);
  lua_setfield(L, E, "string");
  /* log.* format through string.format as scripts have it: charged, and named in errors */
  lua_getfield(L, SS, "format");
  lua_setfield(L, LUA_REGISTRYINDEX, "pss.format");

  lua_newtable(L);
  copy_charged(L, T, lua_gettop(L), TABLE_CHARGED, 0);
  lua_getfield(L, T, "unpack");
  pss_push_charged(L, lua_tocfunction(L, -1), 1);
  lua_setfield(L, -3, "unpack");
  lua_pop(L, 1);
  set_charged(L, lua_gettop(L), "move", pss_lib_tmove);
  set_charged(L, lua_gettop(L), "concat", pss_lib_tconcat);
  set_charged(L, lua_gettop(L), "insert", pss_lib_tinsert);
  set_charged(L, lua_gettop(L), "remove", pss_lib_tremove);
  lua_getfield(L, T, "sort");
  lua_pushcclosure(L, pss_lib_tsort, 1);
  lua_setfield(L, -2, "sort");
  lua_setfield(L, E, "table");

  lua_newtable(L);
  copy_all_charged(L, M);
  set_function(L, lua_gettop(L), "random", pss_lib_random);
  set_function(L, lua_gettop(L), "randomseed", pss_lib_randomseed);
  lua_setfield(L, E, "math");

  lua_newtable(L);
  copy_fields(L, U, lua_gettop(L), UTF8_NAMES);
  copy_charged(L, U, lua_gettop(L), UTF8_CHARGED, 0);
  lua_setfield(L, E, "utf8");

  lua_newtable(L);
  copy_fields(L, C, lua_gettop(L), COROUTINE_NAMES);
  set_function(L, lua_gettop(L), "resume", pss_lib_coresume);
  set_function(L, lua_gettop(L), "wrap", pss_lib_cowrap);
  lua_setfield(L, E, "coroutine");

  lua_newtable(L);
  copy_fields(L, O, lua_gettop(L), OS_NAMES);
  lua_getfield(L, O, "date");
  lua_pushcclosure(L, pss_lib_osdate, 1);
  lua_setfield(L, -2, "date");
  copy_charged(L, O, lua_gettop(L), OS_CHARGED, 0);
  lua_getfield(L, O, "time");
  lua_pushcclosure(L, pss_lib_ostime, 1);
  lua_setfield(L, -2, "time");
  lua_setfield(L, E, "os");

  /* json.null: one locked userdata per state */
  lua_newuserdatauv(L, 1, 0);
  lua_createtable(L, 0, 3);
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pushliteral(L, "json.null");
  lua_setfield(L, -2, "__name");
  lua_pushcfunction(L, null_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_setmetatable(L, -2);
  ctx->ref_null = luaL_ref(L, LUA_REGISTRYINDEX);

  /* tables decoded from JSON arrays (weak keys), so that an empty one stays an array */
  lua_newtable(L);
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "k");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  ctx->ref_arrays = luaL_ref(L, LUA_REGISTRYINDEX);

  /* The string metatable, locked: the stock arithmetic ("10" + 1), charged, and __index, which
   * each run points at the string table of its own environment (pss_enter_environment), so
   * that what a script adds to `string` is a method of its strings in that run only. Until a
   * run enters an environment it is a private copy of the library. */
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
  lua_newtable(L);
  copy_all(L, SS);
  lua_setfield(L, mt, "__index");
  lua_pushboolean(L, 0);
  lua_setfield(L, mt, "__metatable");
  lua_pushvalue(L, mt);
  lua_setfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);
  lua_pushvalue(L, mt);
  lua_setmetatable(L, stock_mt - 1);
  lua_settop(L, stock_mt - 2);
  new_weak_keyed(L, ENV_STRINGS_KEY);
  new_weak_keyed(L, STRING_VIEWS_KEY);

  lua_pushvalue(L, E);
  ctx->ref_template = luaL_ref(L, LUA_REGISTRYINDEX);

  /* Nothing needs the real globals: empty them, so that no path leads to them. */
  lua_pushglobaltable(L);
  int g = lua_gettop(L);
  for (;;) {
    lua_pushnil(L);
    if (lua_next(L, g) == 0) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawset(L, g);
  }
  /* The loaded-library table held the full libraries: it now holds the template's, which is
   * where the auxiliary library finds the names of functions that C called, for errors
   * ("bad argument #2 to 'string.format'"), as stock Lua finds them. Host modules are added
   * as they are registered. No script can reach the registry. */
  lua_createtable(L, 0, 8);
  lua_pushvalue(L, E);
  lua_setfield(L, -2, LUA_GNAME);
  static const char *const LIBS[] = {"string", "table", "math", "utf8", "coroutine", "os", NULL};
  for (const char *const *name = LIBS; *name; name++) {
    lua_getfield(L, E, *name);
    lua_setfield(L, -2, *name);
  }
  lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  return 0;
}

void pss_name_module(lua_State *L, const char *name) {
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

/* Pushes a copy of the table at `idx` (absolute), with room for `extra` more fields, in which
 * every table is copied in turn: a script can change any table of the template (rawset changes
 * even a read-only view), so no run may share one with another. A copy keeps the metatable
 * and the JSON array mark; a read-only view's copy is a view of a copy. The template is a tree
 * (the host's values cannot hold cycles). */
void pss_push_copy(lua_State *L, int idx, int extra) {
  luaL_checkstack(L, 8, "environment too deep");
  if (pss_read_only_view(L, idx)) {  /* name, shown table */
    pss_push_copy(L, lua_gettop(L), 0);
    size_t len;
    const char *name = lua_tolstring(L, -3, &len);
    pss_make_read_only(L, name, len);
    lua_replace(L, -3);
    lua_pop(L, 1);
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
  pss_copy_into(L, idx, lua_gettop(L));
}

void pss_copy_into(lua_State *L, int from, int to) {
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
      pss_push_copy(L, lua_gettop(L), 0);
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

/* registry[&template_list_key]: the template's fields as a list, three slots each: the key,
 * the value and, for a table, the metatable that makes a proxy of it (false for a table with a
 * metatable of its own, a read-only view, which is copied at once, and for other values);
 * field n holds the count. Made when an environment is first made after the template changed:
 * walking a list is quicker than walking a table's hash part. */
static const char template_list_key = 'l';

void pss_template_changed(lua_State *L) {
  lua_pushnil(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &template_list_key);
}

static void push_template_list(lua_State *L) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &template_list_key) == LUA_TTABLE) return;
  lua_pop(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, pss_ctx(L)->ref_template);
  int template = lua_gettop(L);
  lua_newtable(L);
  int list = lua_gettop(L);
  lua_Integer slots = 0;
  lua_pushnil(L);
  while (lua_next(L, template) != 0) {
    lua_pushvalue(L, -2);
    lua_rawseti(L, list, ++slots);
    lua_pushvalue(L, -1);
    lua_rawseti(L, list, ++slots);
    if (lua_type(L, -1) == LUA_TTABLE && !lua_getmetatable(L, -1)) {
      pss_push_lazy_metatable(L, lua_gettop(L));
    } else {
      if (lua_type(L, -1) == LUA_TTABLE) lua_pop(L, 1);  /* its metatable */
      lua_pushboolean(L, 0);
    }
    lua_rawseti(L, list, ++slots);
    lua_pop(L, 1);
  }
  lua_pushinteger(L, slots / 3);
  lua_setfield(L, list, "n");
  lua_pushvalue(L, list);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &template_list_key);
  lua_remove(L, template);
}

void pss_push_environment(lua_State *L) {
  luaL_checkstack(L, 8, "environment too deep");
  push_template_list(L);
  int list = lua_gettop(L);
  lua_getfield(L, list, "n");
  lua_Integer n = lua_tointeger(L, -1);
  lua_pop(L, 1);
  lua_createtable(L, 0, (int)n + 1);
  int env = lua_gettop(L);
  /* the template's tables become the run's own when it first uses them (a table with a
   * metatable, a read-only view, is copied at once) */
  for (lua_Integer i = 0; i < n; i++) {
    lua_rawgeti(L, list, 3 * i + 1);
    if (lua_rawgeti(L, list, 3 * i + 2) == LUA_TTABLE) {
      if (lua_rawgeti(L, list, 3 * i + 3) == LUA_TTABLE) {
        lua_newtable(L);
        lua_insert(L, -2);
        lua_setmetatable(L, -2);
      } else {
        lua_pop(L, 1);
        pss_push_copy(L, lua_gettop(L), 0);
      }
      lua_replace(L, -2);
    }
    lua_rawset(L, env);
  }
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");
  lua_remove(L, list);
  /* remember the environment's own string table, whatever the script later assigns to the
   * global `string` */
  lua_getfield(L, LUA_REGISTRYINDEX, ENV_STRINGS_KEY);
  lua_pushvalue(L, -2);
  lua_getfield(L, -1, "string");
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void pss_enter_environment(lua_State *L, int env) {
  env = lua_absindex(L, env);
  lua_getfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);
  lua_getfield(L, LUA_REGISTRYINDEX, ENV_STRINGS_KEY);
  lua_pushvalue(L, env);
  if (lua_rawget(L, -2) == LUA_TTABLE) {
    lua_pushliteral(L, "__index");
    lua_insert(L, -2);
    lua_rawset(L, -4);
    lua_pop(L, 2);
  } else {
    lua_pop(L, 3);
  }
}

/* __newindex of the string metatable's view: a script cannot change what every request's
 * strings share. */
static int refuse_string_mt_change(lua_State *L) {
  return luaL_error(L, "the string metatable cannot be changed (strings are shared by every "
                       "request); add methods to 'string' instead");
}

/* next over the view's fields (upvalue 1): what pairs gives for the view */
static int view_next(lua_State *L) {
  lua_settop(L, 2);
  if (lua_next(L, lua_upvalueindex(1))) return 2;
  lua_pushnil(L);
  return 1;
}

/* __pairs of the view */
static int view_pairs(lua_State *L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, view_next, 1);
  return 1;
}

/* Pushes a new view of the string metatable for the string table at `strings`: an empty table
 * that reads, and lists with pairs, the metatable's fields with __index = that string table,
 * and refuses writes with the reason. */
static void push_string_mt_view(lua_State *L, int mt, int strings) {
  lua_createtable(L, 0, 9);
  int fields = lua_gettop(L);
  for (const char *const *name = STRING_ARITH; *name; name++) {
    lua_getfield(L, mt, *name);
    lua_setfield(L, fields, *name);
  }
  lua_pushvalue(L, strings);
  lua_setfield(L, fields, "__index");
  lua_newtable(L);                 /* the view */
  lua_createtable(L, 0, 4);        /* its metatable */
  lua_pushvalue(L, fields);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, refuse_string_mt_change);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, fields);
  lua_pushcclosure(L, view_pairs, 1);
  lua_setfield(L, -2, "__pairs");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_remove(L, fields);
}

int pss_lib_getmetatable(lua_State *L) {
  luaL_checkany(L, 1);
  if (lua_type(L, 1) == LUA_TSTRING) {
    /* What the string metatable is to this run: its methods (the run's `string`, to which a
     * script adds as it would in stock Lua) and its arithmetic, in a view of the run's own.
     * One per string table, so that every call returns the same table. */
    lua_settop(L, 1);
    lua_getfield(L, LUA_REGISTRYINDEX, STRING_MT_KEY);        /* 2 */
    lua_getfield(L, LUA_REGISTRYINDEX, STRING_VIEWS_KEY);     /* 3 */
    lua_pushliteral(L, "__index");
    lua_rawget(L, 2);                                         /* 4: the run's string table */
    lua_pushvalue(L, 4);
    if (lua_rawget(L, 3) == LUA_TTABLE) return 1;
    lua_pop(L, 1);
    push_string_mt_view(L, 2, 4);
    lua_pushvalue(L, 4);
    lua_pushvalue(L, -2);
    lua_rawset(L, 3);
    return 1;
  }
  return pss_table_getmetatable(L);
}

pss_context *pss_state_new(size_t memory_limit, void *host) {
  pss_context *ctx = calloc(1, sizeof *ctx);
  if (ctx == NULL) return NULL;
  ctx->limit = memory_limit;
  ctx->host = host;
  ctx->ref_template = ctx->ref_env = ctx->ref_null = ctx->ref_arrays = LUA_NOREF;
  pss_buffer_init(&ctx->args);
  pss_buffer_init(&ctx->results);
  atomic_init(&ctx->trip, PSS_TRIP_NONE);
  atomic_init(&ctx->cancel, 0);
  atomic_init(&ctx->alarm, 0);
  atomic_init(&ctx->running, NULL);
  atomic_init(&ctx->cpu_sample_ns, 0);
  atomic_init(&ctx->cpu_sampled_at_ns, 0);
  pthread_mutex_init(&ctx->thread_lock, NULL);
  pss_timer_init(ctx);
  lua_State *L = lua_newstate(pss_alloc, ctx);
  if (L == NULL) {
    pss_timer_destroy(ctx);
    pthread_mutex_destroy(&ctx->thread_lock);
    free(ctx);
    return NULL;
  }
  ctx->L = L;
  *(pss_context **)lua_getextraspace(L) = ctx;
  atomic_store(&ctx->running, L);
  lua_pushcfunction(L, p_setup);
  if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
    pss_state_close(ctx);
    return NULL;
  }
  lua_settop(L, 0);
  return ctx;
}

void pss_set_host(pss_context *ctx, void *host) { ctx->host = host; }

void pss_state_close(pss_context *ctx) {
  if (ctx == NULL) return;
  pss_limits_forget(ctx);
  if (ctx->L != NULL) lua_close(ctx->L);
  pss_alloc_forget(ctx);
  pss_buffer_free(&ctx->args);
  pss_buffer_free(&ctx->results);
  pss_timer_destroy(ctx);
  pthread_mutex_destroy(&ctx->thread_lock);
  free(ctx);
}
