/* The context the engine keeps per sandboxed state, and how a Lua state finds it. Types and
 * inline accessors only: it declares no function of a .c. Every layer of the engine includes
 * it; it includes the Lua headers the engine's C uses (lua.h, lauxlib.h). */
#ifndef PSS_CONTEXT_H
#define PSS_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include "pss_buffer.h"
#include "pss_timer_slot.h"
#include "pss_types.h"

/* The hash parts the allocator made (pss_alloc.c). */
typedef struct pss_hash_parts pss_hash_parts;

/* The size classes of the small blocks a state keeps when Lua frees them (pss_alloc.c), in
 * steps of PSS_SMALL_STEP bytes. */
#define PSS_SMALL_STEP 16
#define PSS_SMALL_CLASSES 32

/* Everything the shims keep per lua_State. The main thread's extra space points at it, and
 * every coroutine inherits that pointer. It is also the allocator's user data. */
struct pss_context {
  lua_State *L;                 /* the main thread */
  /* memory (bytes held by the state) */
  size_t used, limit, peak;
  /* the large hash parts the allocator made, for the CPU limit's look at a table's growth */
  pss_hash_parts *hash_parts;
  /* small blocks Lua freed, per size class, each holding the next (pss_alloc.c), and their
   * bytes together */
  void *small_free[PSS_SMALL_CLASSES];
  size_t small_cached;
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
  /* the tripped limit (pss_trip), final until the run is armed again (pss_arm) */
  _Atomic int trip;
  /* set from any thread to stop the script at its next check (the deadline watchdog) */
  _Atomic int cancel;
  /* while the host reads a value out of the state: the CPU clock reading and the monotonic
   * time past which a charged walk stops (0 = none; pss_read_begin) */
  int64_t read_cpu_until_ns, read_wall_until_ns;
  /* C steps charged since the clocks were last read */
  size_t steps;
  /* when the thread's CPU clock was last read (CLOCK_MONOTONIC ns) */
  int64_t cpu_checked_ns;
  /* the CPU time the run had used when its thread's CPU clock was last read, and when that was
   * (CLOCK_MONOTONIC ns): what another thread knows of it without a clock of that thread */
  _Atomic int64_t cpu_sample_ns, cpu_sampled_at_ns;
  /* set by the limit timers (pss_alarm): a timer fired or the run was cancelled; the hook is
   * then on (see pss_kill.c) */
  _Atomic int alarm;
  /* the Lua thread (main or coroutine) running now: the one the limit timers hook */
  lua_State *_Atomic running;
  /* the armed run uses the limit timers (else the count hook checks the clocks) */
  int timed;
  /* the OS thread the run is armed on, for the cancel; under thread_lock */
  pthread_mutex_t thread_lock;
  pthread_t thread;
  int thread_known;
  /* what the limit timers' backend keeps (pss_timer_slot.h) */
  pss_timer_slot timer;
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

#endif
