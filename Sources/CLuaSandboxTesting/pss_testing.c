/* Test support, not used by the host: runs Lua source in a plain state (stock libraries, no
 * limits, no hook), so benchmarks can compare the sandbox against stock Lua; measures the
 * scratch buffers of a state. */
#include <lualib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "pss_alloc.h"
#include "pss_context.h"
#include "pss_testing.h"

int pss_testing_run_plain(const char *source, size_t length) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return -1;
  *(pss_context **)lua_getextraspace(L) = NULL;  /* not zeroed by lua_newstate */
  luaL_openlibs(L);
  int status = luaL_loadbufferx(L, source, length, "=plain", "t");
  if (status == LUA_OK) status = lua_pcall(L, 0, 0, 0);
  lua_close(L);
  return status;
}

size_t pss_testing_scratch_bytes(pss_context *ctx) {
  return ctx->args.capacity + ctx->results.capacity;
}

int pss_testing_reads_hash_parts(void) { return pss_alloc_reads_hash_parts(); }

size_t pss_testing_heap_bytes(void) {
#if defined(__GLIBC__)
  return mallinfo2().uordblks;
#else
  return 0;
#endif
}

int pss_testing_hooked(pss_context *ctx) {
  lua_State *running = atomic_load(&ctx->running);
  int main_hooked = lua_gethookmask(ctx->L) != 0;
  int running_hooked = running != NULL && lua_gethookmask(running) != 0;
  return main_hooked | (running_hooked << 1);
}

typedef struct global_type_args {
  int env;
  const char *name;
  int type;
} global_type_args;

static int p_global_type(lua_State *L) {
  global_type_args *a = lua_touserdata(L, 1);
  if (lua_rawgeti(L, LUA_REGISTRYINDEX, a->env) != LUA_TTABLE) return 0;
  lua_pushstring(L, a->name);
  a->type = lua_rawget(L, -2);
  return 0;
}

int pss_testing_global_type(pss_context *ctx, int env_ref, const char *name) {
  global_type_args a = {env_ref, name, -1};
  lua_State *L = ctx->L;
  int top = lua_gettop(L);
  lua_pushcfunction(L, p_global_type);
  lua_pushlightuserdata(L, &a);
  int status = lua_pcall(L, 1, 0, 0);
  lua_settop(L, top);
  return status == LUA_OK ? a.type : -1;
}
