/* The trip, the limit hook and the kill.
 *
 * While a run is in its limits no hook is set, so Lua runs at full speed. The limit timers
 * (pss_timer.h) call pss_alarm when a limit may be due: it sets the hook on the Lua thread that
 * is running (the main thread or a coroutine: each has its own hook) and on the main thread.
 * Within PSS_HOOK_COUNT instructions the hook reads the clocks and raises the kill, and from
 * then on it runs on every instruction, so that pcall, xpcall and coroutine.resume cannot keep
 * a script going. An alarm that finds the last one not acted on makes the hook fire on the
 * next instruction. A hook that finds no limit past takes itself off. Where the timers cannot
 * be had, a count hook reads the clocks every PSS_HOOK_COUNT instructions instead. */
#include "pss_clock.h"
#include "pss_kill.h"

/* Each trip's name and the message of its kill, as PSS_LIMITS gives them. */
typedef struct limit_words {
  const char *name, *message;
} limit_words;
#define LIMIT_WORDS(NAME, name, message) [PSS_TRIP_##NAME] = {name, message},
static const limit_words limits[PSS_TRIP_COUNT] = {
  [PSS_TRIP_NONE] = {"none", "limit exceeded"},
  PSS_LIMITS(LIMIT_WORDS)
};
#undef LIMIT_WORDS

static const limit_words *words(int trip) {
  return &limits[trip > PSS_TRIP_NONE && trip < PSS_TRIP_COUNT ? trip : PSS_TRIP_NONE];
}

const char *pss_limit_name(int trip) { return words(trip)->name; }

const char *pss_kill_message(int trip) { return words(trip)->message; }

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
    /* No allocation may be possible: raise nil, which needs none (a message string might not
     * fit). What catches it reads the trip, not the error object. */
    lua_pushnil(L);
    lua_error(L);
  }
  lua_pushstring(L, pss_kill_message(trip));
  return lua_error(L);
}

/* A hook already set keeps its count, so control passing back and forth between coroutines
 * cannot keep putting it off. */
void pss_hook_on(lua_State *L) {
  if (lua_gethook(L) != pss_hook || lua_gethookmask(L) == 0)
    lua_sethook(L, pss_hook, LUA_MASKCOUNT, PSS_HOOK_COUNT);
}

void pss_alarm(pss_context *ctx) {
  int repeated = atomic_exchange(&ctx->alarm, 1);
  lua_State *running = atomic_load(&ctx->running);
  if (repeated) {
    /* The hook has not looked at the clocks since the last alarm: the instructions are slow
     * ones. It looks at the next instruction. */
    if (running != NULL) lua_sethook(running, pss_hook, LUA_MASKCOUNT, 1);
    lua_sethook(ctx->L, pss_hook, LUA_MASKCOUNT, 1);
    return;
  }
  if (running != NULL) pss_hook_on(running);
  pss_hook_on(ctx->L);
}

int64_t pss_cpu_used_ns(pss_context *ctx, int64_t now) {
  int64_t used = pss_thread_cpu_now_ns() - ctx->cpu_start_ns;
  if (used < 0) used = 0;
  ctx->cpu_checked_ns = now;
  atomic_store_explicit(&ctx->cpu_sample_ns, used, memory_order_relaxed);
  atomic_store_explicit(&ctx->cpu_sampled_at_ns, now, memory_order_release);
  return used;
}

/* The wall clock is cheap (vDSO); the thread's CPU clock is a system call (about 0.6 µs here),
 * so a paced check reads it only when at least PSS_CPU_CHECK_NS of wall time passed since the
 * last read — every millisecond in a busy loop or a long charged C call, and at the first check
 * after a long uncharged C call (a big sort), whatever the instruction or step count — or when
 * an alarm asks for it. */
int pss_limits_check(pss_context *ctx, int how) {
  if (atomic_load(&ctx->cancel)) return PSS_TRIP_TIME;
  if (!ctx->armed) return PSS_TRIP_NONE;
  int64_t now = pss_monotonic_now_ns();
  if (ctx->deadline_ns && now >= ctx->deadline_ns) return PSS_TRIP_TIME;
  if (ctx->cpu_budget_ns &&
      (how == PSS_CLOCKS_NOW || atomic_load(&ctx->alarm) || now - ctx->cpu_checked_ns >= PSS_CPU_CHECK_NS) &&
      pss_cpu_used_ns(ctx, now) >= ctx->cpu_budget_ns)
    return PSS_TRIP_CPU;
  return PSS_TRIP_NONE;
}

void pss_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL) return;
  int trip = atomic_load(&ctx->trip);
  if (trip == PSS_TRIP_NONE) {
    trip = pss_limits_check(ctx, PSS_CLOCKS_PACED);
    if (trip == PSS_TRIP_NONE) {
      if (ctx->timed || !ctx->armed) {
        /* A late alarm, or a hook left from an earlier run: off again. An alarm that comes
         * while it is taken off sets it again. */
        atomic_store(&ctx->alarm, 0);
        lua_sethook(L, NULL, 0, 0);
        if (atomic_load(&ctx->alarm)) pss_hook_on(L);
      }
      return;
    }
    pss_trip_set(ctx, L, trip);
  }
  pss_raise_kill(L);
}

void pss_check_tripped(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL) return;
  if (ctx->memory_refused) pss_trip_set(ctx, L, PSS_TRIP_MEMORY);
  if (atomic_load(&ctx->trip) != PSS_TRIP_NONE) pss_raise_kill(L);
}

void pss_check_trip(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL) return;
  pss_check_tripped(L);
  if (atomic_load(&ctx->cancel)) {
    pss_trip_set(ctx, L, PSS_TRIP_TIME);
    pss_raise_kill(L);
  }
}
