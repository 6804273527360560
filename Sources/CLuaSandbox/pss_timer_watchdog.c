/* The limit timers without signals (pss_timer.h): one watchdog thread for the process.
 *
 * Arming a run puts it on the watch list. The watchdog sleeps until the earliest event of the
 * runs on it: a deadline, a cancel, or the next look at a CPU budget. A run's thread cannot use
 * more CPU time than the wall time that passes, so the earliest its budget can run out is when
 * it was last read plus what was left of it then: the first look is due the budget's length
 * after arming, and none is made for a run that ends before. At an event the watchdog sets the
 * hook on the run's running Lua thread and on its main thread (pss_alarm): lua_sethook may be
 * called asynchronously. The hook, on the run's own thread, reads its CPU clock and the wall
 * clock and trips as it does on Linux, and records what it read, which moves the next look to
 * when the budget can next run out. A run's events are at least PSS_CPU_CHECK_NS apart, so an
 * alarm not acted on is repeated every millisecond, on the next instruction then. While no run
 * is armed the watchdog keeps waking every PSS_WATCH_IDLE_NS for PSS_WATCH_LINGER_NS, so that
 * arming a run during a burst of them does not wake it; after that it waits to be woken.
 *
 * lua_sethook walks the call list of the thread it is given. The running lock makes sure that
 * thread is still running (a coroutine that stopped may be freed), and the allocator holds a
 * free back while the hook is set (ctx->timer.poking): the only blocks the walk can meet as
 * they are freed are the call list's own, which the collector frees on the Lua thread. The
 * watch list is under one lock, which closing a state takes to take it off. */
#include "pss_timer.h"
#if PSS_TIMER_WATCHDOG
#include <time.h>
#include "pss_clock.h"
#include "pss_context.h"
#include "pss_kill.h"

/* While no run is armed: how often the watchdog wakes, and for how long. */
#define PSS_WATCH_IDLE_NS ((int64_t)50000000)
#define PSS_WATCH_LINGER_NS ((int64_t)1000000000)

static pthread_mutex_t watch_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t watch_cond;
static pthread_once_t watch_once = PTHREAD_ONCE_INIT;
static int watch_started;
static pss_context *watch_head;
/* when the watchdog wakes next (CLOCK_MONOTONIC ns), INT64_MAX when it waits to be woken */
static int64_t watch_wake_ns = INT64_MAX;

/* When the run's next event is due (INT64_MAX for none). Under watch_lock. */
static int64_t due_ns(pss_context *c) {
  pss_timer_slot *s = &c->timer;
  if (atomic_load(&c->trip) != PSS_TRIP_NONE) return INT64_MAX;  /* the hook runs on every instruction */
  int64_t due = INT64_MAX;
  if (atomic_load(&c->cancel)) due = 0;
  if (s->deadline_ns && s->deadline_ns < due) due = s->deadline_ns;
  if (s->cpu_budget_ns) {
    int64_t at = atomic_load_explicit(&c->cpu_sampled_at_ns, memory_order_acquire);
    int64_t used = atomic_load_explicit(&c->cpu_sample_ns, memory_order_relaxed);
    int64_t left = s->cpu_budget_ns - used;
    int64_t cpu_due = left > INT64_MAX - at ? INT64_MAX : at + left;
    if (cpu_due < due) due = cpu_due;
  }
  if (due != INT64_MAX && s->poked_ns && due < s->poked_ns + PSS_CPU_CHECK_NS)
    due = s->poked_ns + PSS_CPU_CHECK_NS;
  return due;
}

/* Sets the hook of the run's running thread and main thread. Under watch_lock. */
static void poke(pss_context *c, int64_t now) {
  pthread_mutex_lock(&c->timer.running_lock);
  atomic_store(&c->timer.poking, 1);
  pss_alarm(c);
  atomic_store(&c->timer.poking, 0);
  pthread_mutex_unlock(&c->timer.running_lock);
  c->timer.poked_ns = now;
}

/* Waits on watch_cond until `at_ns` on CLOCK_MONOTONIC, or until woken. */
static void wait_until(int64_t at_ns) {
#if defined(__APPLE__)
  int64_t rel = at_ns - pss_monotonic_now_ns();
  if (rel < 0) rel = 0;
  struct timespec ts = {(time_t)(rel / 1000000000), (long)(rel % 1000000000)};
  pthread_cond_timedwait_relative_np(&watch_cond, &watch_lock, &ts);
#else
  struct timespec ts = {(time_t)(at_ns / 1000000000), (long)(at_ns % 1000000000)};
  pthread_cond_timedwait(&watch_cond, &watch_lock, &ts);
#endif
}

static void *watchdog(void *unused) {
  (void)unused;
  int64_t idle_since = 0;
  pthread_mutex_lock(&watch_lock);
  for (;;) {
    int64_t now = pss_monotonic_now_ns();
    int64_t wake = INT64_MAX;
    for (pss_context *c = watch_head; c != NULL; c = c->timer.next) {
      int64_t due = due_ns(c);
      if (due <= now) {
        poke(c, now);
        due = due_ns(c);
      }
      if (due < wake) wake = due;
    }
    if (watch_head == NULL) {
      if (idle_since == 0) idle_since = now;
      if (now - idle_since < PSS_WATCH_LINGER_NS) wake = now + PSS_WATCH_IDLE_NS;
    } else {
      idle_since = 0;
    }
    watch_wake_ns = wake;
    if (wake == INT64_MAX) pthread_cond_wait(&watch_cond, &watch_lock);
    else wait_until(wake);
  }
  return NULL;
}

static void start_watchdog(void) {
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
#if !defined(__APPLE__)
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
#endif
  pthread_cond_init(&watch_cond, &attributes);
  pthread_condattr_destroy(&attributes);
  pthread_attr_t thread_attributes;
  pthread_attr_init(&thread_attributes);
  pthread_attr_setdetachstate(&thread_attributes, PTHREAD_CREATE_DETACHED);
  pthread_t thread;
  watch_started = pthread_create(&thread, &thread_attributes, watchdog, NULL) == 0;
  pthread_attr_destroy(&thread_attributes);
}

/* Takes the run off the watch list. Under watch_lock. */
static void unwatch(pss_context *ctx) {
  pss_timer_slot *s = &ctx->timer;
  if (!s->watched) return;
  if (s->prev != NULL) s->prev->timer.next = s->next;
  else watch_head = s->next;
  if (s->next != NULL) s->next->timer.prev = s->prev;
  s->next = s->prev = NULL;
  s->watched = 0;
}

/* Wakes the watchdog when `due` is before it would wake. Under watch_lock. */
static void wake_for(int64_t due) {
  if (due >= watch_wake_ns) return;
  watch_wake_ns = due;
  pthread_cond_signal(&watch_cond);
}

void pss_timer_init(pss_context *ctx) {
  pss_timer_slot *s = &ctx->timer;
  s->next = s->prev = NULL;
  s->watched = 0;
  s->deadline_ns = s->cpu_budget_ns = s->poked_ns = 0;
  pthread_mutex_init(&s->running_lock, NULL);
  atomic_init(&s->poking, 0);
}

void pss_timer_destroy(pss_context *ctx) { pthread_mutex_destroy(&ctx->timer.running_lock); }

int pss_timer_prepare(void) {
  pthread_once(&watch_once, start_watchdog);
  return watch_started;
}

void pss_timer_arm(pss_context *ctx) {
  pss_timer_slot *s = &ctx->timer;
  pthread_mutex_lock(&watch_lock);
  s->deadline_ns = ctx->deadline_ns;
  s->cpu_budget_ns = ctx->cpu_budget_ns;
  s->poked_ns = 0;
  if (!s->watched) {
    s->prev = NULL;
    s->next = watch_head;
    if (watch_head != NULL) watch_head->timer.prev = ctx;
    watch_head = ctx;
    s->watched = 1;
  }
  wake_for(due_ns(ctx));
  pthread_mutex_unlock(&watch_lock);
}

void pss_timer_disarm(pss_context *ctx) {
  pthread_mutex_lock(&watch_lock);
  unwatch(ctx);
  pthread_mutex_unlock(&watch_lock);
}

void pss_timer_forget(pss_context *ctx) { pss_timer_disarm(ctx); }

void pss_timer_cancel(pss_context *ctx) {
  pthread_mutex_lock(&watch_lock);
  if (ctx->timer.watched) {
    int64_t now = pss_monotonic_now_ns();
    poke(ctx, now);
    wake_for(now + PSS_CPU_CHECK_NS);  /* to repeat it until the run acts on it */
  }
  pthread_mutex_unlock(&watch_lock);
}

int64_t pss_timer_run_cpu_ns(pss_context *ctx) {
  return atomic_load_explicit(&ctx->cpu_sample_ns, memory_order_relaxed);
}

void pss_timer_lock_running(pss_context *ctx) { pthread_mutex_lock(&ctx->timer.running_lock); }
void pss_timer_unlock_running(pss_context *ctx) { pthread_mutex_unlock(&ctx->timer.running_lock); }

void pss_timer_wait_poke(pss_context *ctx) {
  pthread_mutex_lock(&ctx->timer.running_lock);
  pthread_mutex_unlock(&ctx->timer.running_lock);
}

const char *pss_timer_backend(void) { return "portable"; }

#endif
