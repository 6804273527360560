/* Sandboxed states: creation with the limits installed, the library as a template, and a
 * fresh environment per run made from that template. */
#include <stdlib.h>
#include "pss_alloc.h"
#include "pss_arm.h"
#include "pss_array_mark.h"
#include "pss_codec.h"
#include "pss_host.h"
#include "pss_lib.h"
#include "pss_proxy.h"
#include "pss_state.h"
#include "pss_string_metatable.h"
#include "pss_timer.h"

/* Builds the template (the library), what host functions, the codec and the string metatable
 * need in the registry, and the locked string metatable. */
static int p_setup(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  luaL_checkstack(L, 40, "setup");
  pss_alloc_probe(L);
  pss_lib_open(L);
  int template = lua_gettop(L);
  lua_getfield(L, template, "string");
  int strings = lua_gettop(L);
  /* log.* format through string.format as scripts have it: charged, and named in errors */
  lua_getfield(L, strings, "format");
  pss_host_open(L, lua_gettop(L));
  lua_pop(L, 1);
  pss_codec_open(L);
  pss_array_mark_open(L);
  pss_string_metatable_open(L, strings);
  lua_pushvalue(L, template);
  ctx->ref_template = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

void pss_name_module(lua_State *L, const char *name) {
  lua_getfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
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
      pss_proxy_push_lazy_metatable(L, lua_gettop(L));
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
        pss_proxy_push_copy(L, lua_gettop(L), 0);
      }
      lua_replace(L, -2);
    }
    lua_rawset(L, env);
  }
  lua_pushvalue(L, env);
  lua_setfield(L, env, "_G");
  lua_remove(L, list);
  pss_string_metatable_remember(L);
}

pss_context *pss_state_make(size_t memory_limit, void *host) {
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
    pss_state_free(ctx);
    return NULL;
  }
  lua_settop(L, 0);
  return ctx;
}

void pss_state_free(pss_context *ctx) {
  if (ctx == NULL) return;
  pss_arm_forget(ctx);
  if (ctx->L != NULL) lua_close(ctx->L);
  pss_alloc_forget(ctx);
  pss_buffer_free(&ctx->args);
  pss_buffer_free(&ctx->results);
  pss_timer_destroy(ctx);
  pthread_mutex_destroy(&ctx->thread_lock);
  free(ctx);
}
