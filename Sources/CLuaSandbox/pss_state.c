/* Sandboxed states: creation with the limits installed, the library as a template, and a
 * fresh environment per run over that template. */
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

void pss_push_environment(lua_State *L) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, pss_ctx(L)->ref_template);
  pss_proxy_push_lazy_environment(L, -1);
  lua_remove(L, -2);
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
    /* what lua_newstate freed when it could not open the state went to the small-block lists */
    pss_alloc_forget(ctx);
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
