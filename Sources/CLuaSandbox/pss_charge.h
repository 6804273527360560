/* Charging the work of C functions to the running script's CPU budget (pss_charge.c). */
#ifndef PSS_CHARGE_H
#define PSS_CHARGE_H
#include "pss_context.h"

/* Charged C steps between two reads of the clocks. */
#define PSS_CHARGE_INTERVAL 4096

/* Charges `steps` units of work done inside a C function (a pattern matcher step, a copied
 * element) to the running script's CPU budget. Every few thousand steps it checks the clocks
 * as the hook does (the thread's CPU clock at most once per millisecond of wall time). When a
 * limit has been hit it raises the kill, which pcall, xpcall and coroutine.resume cannot
 * catch: it does not return then.
 * While the host reads a value out of the state (ctx->reading) it checks the read's own
 * allowance instead (pss_charge_check).
 * On a state whose extra space holds NULL instead of a context it does nothing (lua_newstate
 * does not zero the extra space: a plain state must set it). Inline: most charges only add;
 * pss_charge_check is the check, once the steps reached PSS_CHARGE_INTERVAL. */
void pss_charge_check(lua_State *L, pss_context *ctx);
static inline void pss_charge(lua_State *L, size_t steps) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL) return;
  ctx->steps += steps;
  if (ctx->steps >= PSS_CHARGE_INTERVAL) pss_charge_check(L, ctx);
}

/* What one step of a walk over a table with lua_next is charged: a lua_next finds its key
 * again by walking the key's chain, which keys that share one chain make as long as the
 * table, so the clocks are looked at every 16 keys rather than every 4,096. */
#define PSS_CHARGE_NEXT (PSS_CHARGE_INTERVAL / 16)

/* Charged work at least this large is looked at ahead (pss_charge_ahead). */
#define PSS_AHEAD_STEPS ((size_t)1 << 20)
/* The CPU time one unit of charged work takes at the least, in picoseconds: a pass over a
 * byte (converting a numeric string, changing case, copying) takes 1 ns or more here. */
#define PSS_AHEAD_PS_PER_STEP 500

/* For one C call about to do `work` units of work that nothing can interrupt: trips the CPU
 * limit and raises the kill now when the budget left is less than the least time that work
 * takes, so that a call that cannot fit does not run past the budget first. Reads the
 * thread's CPU clock. */
void pss_charge_ahead(lua_State *L, size_t work);

/* The CPU time the armed run has left, read on its thread now (INT64_MAX for no budget, 0 when
 * it is spent or a limit tripped). */
int64_t pss_cpu_left_ns(pss_context *ctx);

/* Around a host read of a value out of the state (ctx->reading): the read may use what is left
 * of the run's CPU budget and of its deadline, or PSS_READ_ALLOWANCE_PERCENT of the budget (at
 * least PSS_READ_ALLOWANCE_MIN_NS) when less is left, so that a script stopped by a limit still
 * has its best attempt read back; past that a charged walk raises an error. */
#define PSS_READ_ALLOWANCE_PERCENT 25
#define PSS_READ_ALLOWANCE_MIN_NS 5000000
void pss_read_begin(pss_context *ctx);
void pss_read_end(pss_context *ctx);

#endif
