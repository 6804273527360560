/* What host code reads of a state's budget. */
#include "pss_internal.h"

size_t pss_memory_limit(pss_context *ctx) { return ctx->limit; }

pss_trip pss_limit_passed(pss_context *ctx) {
  int trip = atomic_load(&ctx->trip);
  if (trip != PSS_TRIP_NONE) return (pss_trip)trip;
  if (atomic_load(&ctx->cancel)) return PSS_TRIP_TIME;
  if (!ctx->armed) return PSS_TRIP_NONE;
  if (ctx->deadline_ns && pss_monotonic_now_ns() >= ctx->deadline_ns) return PSS_TRIP_TIME;
  if (ctx->cpu_budget_ns && pss_thread_cpu_now_ns() - ctx->cpu_start_ns >= ctx->cpu_budget_ns)
    return PSS_TRIP_CPU;
  return PSS_TRIP_NONE;
}
