/* Arming a run's limits on the thread that runs it, cancelling it from any thread, and the
 * running Lua thread. The limit timers behind them are pss_timer.h's. */
#include "pss_arm.h"
#include "pss_clock.h"
#include "pss_kill.h"
#include "pss_timer.h"

lua_State *pss_enter_thread(pss_context *ctx, lua_State *co) {
  pss_timer_lock_running(ctx);
  lua_State *previous = atomic_exchange(&ctx->running, co);
  pss_timer_unlock_running(ctx);
  if (atomic_load(&ctx->alarm)) pss_hook_on(co);
  return previous;
}

void pss_leave_thread(pss_context *ctx, lua_State *previous) {
  pss_timer_lock_running(ctx);
  atomic_store(&ctx->running, previous);
  pss_timer_unlock_running(ctx);
  if (atomic_load(&ctx->alarm) && previous != NULL) pss_hook_on(previous);
}

void pss_arm(pss_context *ctx, int64_t cpu_budget_ns, int64_t deadline_ns, size_t memory_limit) {
  int timed = pss_timer_prepare();
  pthread_mutex_lock(&ctx->thread_lock);
  ctx->thread = pthread_self();
  ctx->thread_known = 1;
  atomic_store(&ctx->trip, PSS_TRIP_NONE);
  atomic_store(&ctx->cancel, 0);
  atomic_store(&ctx->alarm, 0);
  pss_timer_lock_running(ctx);
  atomic_store(&ctx->running, ctx->L);
  pss_timer_unlock_running(ctx);
  ctx->timed = timed;
  ctx->cpu_budget_ns = cpu_budget_ns;
  ctx->cpu_checked_ns = pss_monotonic_now_ns();
  ctx->cpu_start_ns = pss_thread_cpu_since_ns(ctx->cpu_checked_ns);
  ctx->limit = memory_limit;
  ctx->steps = 0;
  ctx->memory_refused = 0;
  atomic_store(&ctx->cpu_sample_ns, 0);
  atomic_store(&ctx->cpu_sampled_at_ns, ctx->cpu_checked_ns);
  ctx->deadline_ns = deadline_ns;
  ctx->armed = 1;
  if (timed) {
    lua_sethook(ctx->L, NULL, 0, 0);
    pss_timer_arm(ctx);
  } else {
    lua_sethook(ctx->L, pss_hook, LUA_MASKCOUNT, PSS_HOOK_COUNT);
  }
  pthread_mutex_unlock(&ctx->thread_lock);
}

void pss_disarm(pss_context *ctx) {
  pthread_mutex_lock(&ctx->thread_lock);
  ctx->armed = 0;
  pss_timer_disarm(ctx);
  ctx->thread_known = 0;
  pthread_mutex_unlock(&ctx->thread_lock);
}

void pss_arm_forget(pss_context *ctx) {
  pthread_mutex_lock(&ctx->thread_lock);
  pss_timer_forget(ctx);
  ctx->thread_known = 0;
  pthread_mutex_unlock(&ctx->thread_lock);
}

void pss_arm_cancel(pss_context *ctx) {
  atomic_store(&ctx->cancel, 1);
  pthread_mutex_lock(&ctx->thread_lock);
  if (ctx->thread_known && ctx->timed) pss_timer_cancel(ctx);
  pthread_mutex_unlock(&ctx->thread_lock);
}

int64_t pss_arm_cpu_used_ns(pss_context *ctx) {
  int64_t used = -1;
  pthread_mutex_lock(&ctx->thread_lock);
  if (ctx->thread_known) {
    if (pthread_equal(ctx->thread, pthread_self())) {
      used = pss_thread_cpu_now_ns() - ctx->cpu_start_ns;
      if (used < 0) used = 0;
    } else {
      used = pss_timer_run_cpu_ns(ctx);
    }
  }
  pthread_mutex_unlock(&ctx->thread_lock);
  return used;
}
