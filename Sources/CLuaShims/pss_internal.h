/* Internal interface of the shims: the per-state context, the limits and the kill, and the
 * environments.
 * Not visible to Swift (not under include/). */
#ifndef PSS_INTERNAL_H
#define PSS_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include "pss.h"

/* Instructions between a limit signal and the hook's look at the clocks; and between two runs
 * of the count hook on a thread where the limit timers cannot be made. */
#define PSS_HOOK_COUNT 1000
/* Nanoseconds between repeated limit signals once a limit timer has fired: a signal that finds
 * the previous one not yet acted on makes the hook fire on the next instruction, so 1,000
 * instructions that each spend milliseconds in the VM (a `for` limit or an `==` on a string of
 * megabytes) cannot carry a script far past its limit. */
#define PSS_RESIGNAL_NS 2000000
/* Wall-clock nanoseconds between two reads of the thread's CPU clock. */
#define PSS_CPU_CHECK_NS 1000000
/* Charged C steps between two reads of the clocks. */
#define PSS_CHARGE_INTERVAL 4096

/* Everything the shims keep per lua_State. The main thread's extra space points at it, and
 * every coroutine inherits that pointer. It is also the allocator's user data. */
struct pss_context {
  lua_State *L;                 /* the main thread */
  /* memory (bytes held by the state) */
  size_t used, limit, peak;
  /* CPU budget, in nanoseconds of the running thread's CPU clock; 0 = none */
  int64_t cpu_start_ns, cpu_budget_ns;
  /* wall-clock deadline on CLOCK_MONOTONIC, in nanoseconds; 0 = none */
  int64_t deadline_ns;
  /* set when a run is armed: allocation failures and clock checks then trip the kill */
  int armed;
  /* an armed allocation was refused and none has succeeded since. Lua then collects garbage
   * and tries once more: when that fails too, the memory error it raises is the kill (see
   * pss_check_trip); when it succeeds, the garbage made room and nothing tripped. */
  int memory_refused;
  /* the tripped limit (pss_trip), final until pss_limits_arm is called again */
  _Atomic int trip;
  /* set from any thread to stop the script at its next check (the deadline watchdog) */
  _Atomic int cancel;
  /* C steps charged since the clocks were last read */
  size_t steps;
  /* when the thread's CPU clock was last read (CLOCK_MONOTONIC ns) */
  int64_t cpu_checked_ns;
  /* set by the limit signal: a timer fired or the watchdog cancelled; the hook is then on
   * (see pss_limits.c) */
  _Atomic int alarm;
  /* the Lua thread (main or coroutine) running now: the one the limit signal hooks */
  lua_State *_Atomic running;
  /* the armed run uses the limit timers (else the count hook checks the clocks) */
  int timed;
  /* the OS thread the run is armed on, for the watchdog's signal; under thread_lock */
  pthread_mutex_t thread_lock;
  pthread_t thread;
  int thread_known;
  /* where the arming thread keeps its armed context (cleared when the state closes) */
  pss_context **armed_slot;
  /* failed wrapped coroutines being reset, one inside another */
  int nested_resets;
  /* the embedding host's object, handed back to the dispatch function */
  void *host;
  /* registry references */
  int ref_template, ref_env, ref_null, ref_arrays;
  /* scratch buffers of the host-call trampoline, and whether a host call is using them */
  pss_buffer args, results;
  int dispatching;
  /* set while the host copies a value out of the state (pss_value_read and the slot reads):
   * no script runs then, so a host call made meanwhile (a lazy view met in the value) is not
   * stopped by a limit the script hit */
  int reading;
};

/* The context of a state, or NULL for a plain lua_State. */
static inline pss_context *pss_ctx(lua_State *L) {
  return *(pss_context **)lua_getextraspace(L);
}

/* Charges `steps` units of work done inside a C function (a pattern matcher step, a copied
 * element) to the running script's CPU budget. Every few thousand steps it checks the clocks
 * as the hook does (the thread's CPU clock at most once per millisecond of wall time). When a
 * limit has been hit it raises the kill, which pcall, xpcall and coroutine.resume cannot
 * catch: it does not return then.
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

/* Raises the kill when a limit has already tripped, or when an allocation was refused for
 * good (the error being caught is then the memory error); returns otherwise. Cheap. Every
 * function that catches errors calls it on the errors it caught. */
void pss_check_trip(lua_State *L);
/* As pss_check_trip, but a cancel not yet acted on is left for the next check (the one after
 * a host call, or the hook): a host call that starts as the deadline comes still lands, as it
 * would a moment earlier, and the kill follows it. */
void pss_check_tripped(lua_State *L);

/* Records a tripped limit (the first one wins) and makes every thread's hook fire on the
 * next instruction. Does not raise. */
void pss_trip_set(pss_context *ctx, lua_State *L, int trip);

/* Raises the kill for the tripped limit. Never returns. */
int pss_raise_kill(lua_State *L);

/* Refuses an allocation that would pass the memory limit: trips `memory` and raises the
 * kill when `bytes` more would not fit even after a full garbage collection. For C functions
 * that know their result size up front (string.rep). */
void pss_reserve(lua_State *L, size_t bytes);

/* Pushes a run's environment: a copy of the state's template that shares no table with
 * another run, however deep it sits, and _G (pss_state.c). */
void pss_push_environment(lua_State *L);

/* Pushes a copy of the table at `idx` (absolute), with room for `extra` more fields, in which
 * every table is copied in turn, its metatable and JSON array mark kept (pss_state.c). */
void pss_push_copy(lua_State *L, int idx, int extra);

/* Copies into the table at `to` (absolute) every field of the table at `from` (absolute) that
 * `to` does not hold yet, tables copied as pss_push_copy copies them; then gives `to` the
 * metatable of `from` (or none) and, when `from` is an empty JSON array, the array mark. */
void pss_copy_into(lua_State *L, int from, int to);

/* Pushes the metatable that makes a table a proxy of the template's table at `from`: an
 * empty table with it becomes a copy (pss_push_copy) of that table the first time a script
 * uses it. One per template table, made once (pss_lazy_library.c). */
void pss_push_lazy_metatable(lua_State *L, int from);

/* Notes that the template's own fields changed: the next environment is made from them as
 * they are now (pss_state.c). */
void pss_template_changed(lua_State *L);

/* When the table at `idx` is such a proxy, makes it the copy now and returns 1; else 0.
 * Every C function that reads or changes a script's table past its metatable calls it
 * first. */
int pss_fill_lazy(lua_State *L, int idx);

/* Makes the environment at `env` the one a run is in: strings' methods are then its own string
 * table's (pss_state.c). Every entry point that runs script code calls it first. */
void pss_enter_environment(lua_State *L, int env);

/* Names the table on top of the stack `name` for the auxiliary library's function names in
 * errors ("bad argument #1 to 'json.encode'"); leaves the stack as it was (pss_state.c). */
void pss_name_module(lua_State *L, const char *name);

/* The __newindex of a table in use as a metatable: refuses the key __mode, and otherwise does
 * what its upvalue, the script's __newindex, does (pss_lib_metatable.c). */
int pss_guard_newindex(lua_State *L);

/* The capped allocator (lua_Alloc) whose user data is the context. */
void *pss_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* The limit hook: set by the limit signal (or, where timers are missing, as a count hook at
 * arming), and on every instruction once a limit tripped. */
void pss_hook(lua_State *L, lua_Debug *ar);

/* Marks `co` as the running Lua thread and returns the one it replaces; hooks `co` when the
 * limit signal came already. The guarded resume calls it around lua_resume. */
lua_State *pss_enter_thread(pss_context *ctx, lua_State *co);
/* Marks `previous` as running again after a resume returned. */
void pss_leave_thread(pss_context *ctx, lua_State *previous);
/* Forgets the run armed on this state, wherever it was armed (the state is closing). */
void pss_limits_forget(pss_context *ctx);

#endif
