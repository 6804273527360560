/* What the limit timers' backend (pss_timer.h) keeps per state: pss_context's `timer`. Types
 * only, so that the context can hold it without the timers' interface. */
#ifndef PSS_TIMER_SLOT_H
#define PSS_TIMER_SLOT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "pss_types.h"

#if defined(PSS_PORTABLE_LIMITS) || !defined(__linux__)
#define PSS_TIMER_WATCHDOG 1
#else
#define PSS_TIMER_LINUX 1
#endif

typedef struct pss_timer_slot {
#if PSS_TIMER_WATCHDOG
  /* The watch list (under the watchdog's lock): armed runs, and copies of their limits. */
  pss_context *next, *prev;
  int watched;
  int64_t deadline_ns, cpu_budget_ns;
  /* when the hook was last set from the watchdog (CLOCK_MONOTONIC ns; 0 = not since armed) */
  int64_t poked_ns;
  /* Taken around every change of the running Lua thread and around the watchdog's setting of
   * the hook, so that the watchdog never sets it on a coroutine that has stopped running (it
   * may be freed then). */
  pthread_mutex_t running_lock;
  /* set while the watchdog sets the hook: lua_sethook walks the running thread's call list,
   * and the allocator holds back a free until it is done (pss_timer_wait_poke) */
  _Atomic int poking;
#else
  /* where the arming thread keeps its armed context (cleared when the state closes) */
  pss_context **armed_slot;
#endif
} pss_timer_slot;

#endif
