/* Charging the work of C functions: the look at the clocks every PSS_CHARGE_INTERVAL steps,
 * the look ahead at one long call, and the allowance of a host read. */
#include "pss_charge.h"
#include "pss_clock.h"
#include "pss_kill.h"

/* A host read out of the state past its allowance: an error, not the kill (the script is over,
 * and what the read found too costly is left out of the result). */
static void read_too_long(lua_State *L) {
  luaL_error(L, "copying the value out of the state took longer than the request's limits "
                "allow (a table whose keys share one hash chain is walked in quadratic time)");
}

static void read_check(lua_State *L, pss_context *ctx) {
  if (!ctx->armed) return;
  int64_t now = pss_monotonic_now_ns();
  if (ctx->read_wall_until_ns && now >= ctx->read_wall_until_ns) read_too_long(L);
  if (ctx->read_cpu_until_ns && now - ctx->cpu_checked_ns >= PSS_CPU_CHECK_NS) {
    ctx->cpu_checked_ns = now;
    if (pss_thread_cpu_now_ns() >= ctx->read_cpu_until_ns) read_too_long(L);
  }
}

void pss_charge_check(lua_State *L, pss_context *ctx) {
  ctx->steps = 0;
  if (ctx->reading) {
    read_check(L, ctx);
    return;
  }
  int trip = atomic_load(&ctx->trip);
  if (trip == PSS_TRIP_NONE) trip = pss_limits_check(ctx, PSS_CLOCKS_PACED);
  if (trip == PSS_TRIP_NONE) return;
  pss_trip_set(ctx, L, trip);
  pss_raise_kill(L);
}

int64_t pss_cpu_left_ns(pss_context *ctx) {
  if (!ctx->armed || ctx->cpu_budget_ns == 0) return INT64_MAX;
  if (atomic_load(&ctx->trip) != PSS_TRIP_NONE) return 0;
  int64_t used = pss_cpu_used_ns(ctx, pss_monotonic_now_ns());
  return used < ctx->cpu_budget_ns ? ctx->cpu_budget_ns - used : 0;
}

void pss_charge_ahead(lua_State *L, size_t work) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL || !ctx->armed || ctx->cpu_budget_ns == 0 || ctx->reading) return;
  int64_t ahead = work > (size_t)(INT64_MAX / PSS_AHEAD_PS_PER_STEP) / 1000
                      ? INT64_MAX / 2
                      : (int64_t)work * PSS_AHEAD_PS_PER_STEP / 1000;
  int64_t left = pss_cpu_left_ns(ctx);
  if (left > 0 && ahead < left) return;
  pss_trip_set(ctx, L, PSS_TRIP_CPU);
  pss_raise_kill(L);
}

void pss_read_begin(pss_context *ctx) {
  ctx->read_cpu_until_ns = ctx->read_wall_until_ns = 0;
  if (!ctx->armed) return;
  int64_t allowance = ctx->cpu_budget_ns / 100 * PSS_READ_ALLOWANCE_PERCENT;
  if (allowance < PSS_READ_ALLOWANCE_MIN_NS) allowance = PSS_READ_ALLOWANCE_MIN_NS;
  int64_t now = pss_monotonic_now_ns();
  if (ctx->cpu_budget_ns) {
    /* The thread used at most the wall time since its CPU clock was last read: when even that
     * leaves more than the allowance, the read runs to the end of the budget, and the clock
     * (a system call) is not read. */
    int64_t at_most = atomic_load_explicit(&ctx->cpu_sample_ns, memory_order_relaxed) + now -
                      atomic_load_explicit(&ctx->cpu_sampled_at_ns, memory_order_relaxed);
    if (ctx->cpu_budget_ns - at_most > allowance) {
      ctx->read_cpu_until_ns = ctx->cpu_start_ns + ctx->cpu_budget_ns;
    } else {
      int64_t cpu_now = pss_thread_cpu_now_ns();
      int64_t left = ctx->cpu_start_ns + ctx->cpu_budget_ns - cpu_now;
      ctx->read_cpu_until_ns = cpu_now + (left > allowance ? left : allowance);
    }
  }
  if (ctx->deadline_ns) {
    int64_t left = ctx->deadline_ns - now;
    ctx->read_wall_until_ns = now + (left > allowance ? left : allowance);
  }
}

void pss_read_end(pss_context *ctx) { ctx->read_cpu_until_ns = ctx->read_wall_until_ns = 0; }
