/* The limits: the capped allocator, the count hook, charging of C work, and the kill. */
#include <stdlib.h>
#include <time.h>
#include "pss_internal.h"

static const char *const kill_messages[] = {
  "limit exceeded", "cpu limit exceeded", "memory limit exceeded", "time limit exceeded",
};

int64_t pss_thread_cpu_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t pss_monotonic_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void *pss_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  pss_context *ctx = (pss_context *)ud;
  if (ptr == NULL) osize = 0;  /* osize then encodes the object's type, not a size */
  if (nsize == 0) {
    free(ptr);
    ctx->used -= osize;
    return NULL;
  }
  if (nsize > osize) {
    size_t grow = nsize - osize;
    if (ctx->used + grow > ctx->limit || ctx->used + grow < ctx->used) {
      /* Not a trip yet: Lua collects garbage and asks again (see memory_refused). */
      if (ctx->armed) ctx->memory_refused = 1;
      return NULL;
    }
  }
  void *block = realloc(ptr, nsize);
  if (block == NULL) return NULL;
  ctx->memory_refused = 0;
  ctx->used = ctx->used - osize + nsize;
  if (ctx->used > ctx->peak) ctx->peak = ctx->used;
  return block;
}

/* Makes the hook of `L` (and of the main thread) fire on every instruction, so that a kill
 * caught by anything is raised again at once. */
static void hook_every_instruction(pss_context *ctx, lua_State *L) {
  lua_sethook(L, pss_hook, LUA_MASKCOUNT, 1);
  if (ctx->L != L) lua_sethook(ctx->L, pss_hook, LUA_MASKCOUNT, 1);
}

void pss_trip_set(pss_context *ctx, lua_State *L, int trip) {
  int none = PSS_TRIP_NONE;
  atomic_compare_exchange_strong(&ctx->trip, &none, trip);
  if (L != NULL) hook_every_instruction(ctx, L);
}

int pss_raise_kill(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  int trip = ctx ? atomic_load(&ctx->trip) : PSS_TRIP_NONE;
  if (ctx) hook_every_instruction(ctx, L);
  if (trip == PSS_TRIP_MEMORY) {
    /* No allocation may be possible: raise the preallocated memory error. */
    lua_pushnil(L);
    lua_error(L);
  }
  lua_pushstring(L, kill_messages[trip >= 0 && trip <= 3 ? trip : 0]);
  return lua_error(L);
}

/* Reads the clocks; returns the limit that is past, if any. The wall clock is cheap (vDSO);
 * the thread's CPU clock is a system call (about 0.6 µs here), so it is read only when at
 * least PSS_CPU_CHECK_NS of wall time passed since the last read — every millisecond in a busy
 * loop or a long charged C call, and at the first check after a long uncharged C call (a big
 * sort), whatever the instruction or step count. */
static int clocks_tripped(pss_context *ctx) {
  if (atomic_load(&ctx->cancel)) return PSS_TRIP_TIME;
  if (!ctx->armed) return PSS_TRIP_NONE;
  int64_t now = pss_monotonic_now_ns();
  if (ctx->deadline_ns && now >= ctx->deadline_ns) return PSS_TRIP_TIME;
  if (ctx->cpu_budget_ns && now - ctx->cpu_checked_ns >= PSS_CPU_CHECK_NS) {
    ctx->cpu_checked_ns = now;
    if (pss_thread_cpu_now_ns() - ctx->cpu_start_ns >= ctx->cpu_budget_ns) return PSS_TRIP_CPU;
  }
  return PSS_TRIP_NONE;
}

void pss_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL) return;
  int trip = atomic_load(&ctx->trip);
  if (trip == PSS_TRIP_NONE) {
    trip = clocks_tripped(ctx);
    if (trip == PSS_TRIP_NONE) return;
    pss_trip_set(ctx, L, trip);
  }
  pss_raise_kill(L);
}

void pss_check_trip(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL) return;
  if (ctx->memory_refused) pss_trip_set(ctx, L, PSS_TRIP_MEMORY);
  if (atomic_load(&ctx->trip) != PSS_TRIP_NONE) pss_raise_kill(L);
  if (atomic_load(&ctx->cancel)) {
    pss_trip_set(ctx, L, PSS_TRIP_TIME);
    pss_raise_kill(L);
  }
}

void pss_charge_check(lua_State *L, pss_context *ctx) {
  ctx->steps = 0;
  int trip = atomic_load(&ctx->trip);
  if (trip == PSS_TRIP_NONE) trip = clocks_tripped(ctx);
  if (trip == PSS_TRIP_NONE) return;
  pss_trip_set(ctx, L, trip);
  pss_raise_kill(L);
}

static int fits(pss_context *ctx, size_t bytes) {
  return bytes <= ctx->limit && ctx->used <= ctx->limit - bytes;
}

void pss_reserve(lua_State *L, size_t bytes) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL || fits(ctx, bytes)) return;
  if (bytes <= ctx->limit) lua_gc(L, LUA_GCCOLLECT);  /* no finalizer exists: no script runs */
  if (!fits(ctx, bytes)) {
    if (ctx->armed) {
      pss_trip_set(ctx, L, PSS_TRIP_MEMORY);
      pss_raise_kill(L);
    }
    luaL_error(L, "not enough memory");
  }
}

void pss_limits_arm(pss_context *ctx, int64_t cpu_budget_ns, int64_t deadline_ns,
                    size_t memory_limit) {
  atomic_store(&ctx->trip, PSS_TRIP_NONE);
  atomic_store(&ctx->cancel, 0);
  ctx->cpu_budget_ns = cpu_budget_ns;
  ctx->cpu_start_ns = pss_thread_cpu_now_ns();
  ctx->deadline_ns = deadline_ns;
  ctx->limit = memory_limit;
  ctx->steps = 0;
  ctx->memory_refused = 0;
  ctx->cpu_checked_ns = pss_monotonic_now_ns();
  ctx->armed = 1;
  lua_sethook(ctx->L, pss_hook, LUA_MASKCOUNT, PSS_HOOK_COUNT);
}

void pss_limits_disarm(pss_context *ctx) { ctx->armed = 0; }

void pss_cancel(pss_context *ctx) { atomic_store(&ctx->cancel, 1); }

void pss_trip_request(pss_context *ctx, pss_trip trip) { pss_trip_set(ctx, NULL, (int)trip); }

pss_trip pss_trip_of(pss_context *ctx) { return (pss_trip)atomic_load(&ctx->trip); }
size_t pss_memory_used(pss_context *ctx) { return ctx->used; }
size_t pss_memory_peak(pss_context *ctx) { return ctx->peak; }
void pss_memory_peak_reset(pss_context *ctx) { ctx->peak = ctx->used; }
