/* The limits: the capped allocator, the limit timers and their hook, charging of C work, and
 * the kill.
 *
 * While a run is in its limits no hook is set, so Lua runs at full speed. Arming a run sets two
 * timers of the calling thread: one on its CPU clock (CLOCK_THREAD_CPUTIME_ID) at the end of
 * the CPU budget and one on CLOCK_MONOTONIC at the deadline, both signalling this very thread
 * (SIGEV_THREAD_ID). The watchdog's cancel sends the same signal. The handler sets the hook on
 * the Lua thread that is running (the main thread or a coroutine: each has its own hook) and
 * on the main thread; within PSS_HOOK_COUNT instructions the hook reads the clocks and raises
 * the kill, and from then on it runs on every instruction. The timers fire again every
 * PSS_RESIGNAL_NS; a signal that finds the last one not acted on makes the hook fire on the
 * next instruction. Disarming leaves the timers set (the next arm sets them again); a signal
 * that finds no armed run on its thread stops them. Where the timers cannot be made, a count hook reads the clocks every
 * PSS_HOOK_COUNT instructions instead. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
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
    /* No allocation may be possible: raise nil, which needs none (a message string might not
     * fit). What catches it reads the trip, not the error object. */
    lua_pushnil(L);
    lua_error(L);
  }
  lua_pushstring(L, kill_messages[trip >= 0 && trip <= 3 ? trip : 0]);
  return lua_error(L);
}

/* ---- The limit signal and the per-thread timers ----------------------------------------- */

/* The context armed on this thread, for the signal handler. */
static _Thread_local pss_context *armed_here;
/* This thread's timers: 0 not made yet, 1 made, -1 cannot be made. */
static _Thread_local int timers_state;
static _Thread_local timer_t cpu_timer, deadline_timer;

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static int limit_signal;
static int handler_installed;

/* Sets the limit hook on `L` for a limit signal: it reads the clocks after PSS_HOOK_COUNT more
 * instructions, as the count hook did (a script a few instructions from returning or from its
 * next step still takes it). A hook already set keeps its count, so control passing back and
 * forth between coroutines cannot keep putting it off. */
static void hook_on(lua_State *L) {
  if (lua_gethook(L) != pss_hook || lua_gethookmask(L) == 0)
    lua_sethook(L, pss_hook, LUA_MASKCOUNT, PSS_HOOK_COUNT);
}

static void set_timer(timer_t timer, int64_t at_ns);

/* The limit signal: sets the hook on the running Lua thread and the main thread. On a thread
 * with no armed run (a timer of a run that ended, which disarming leaves set) it stops this
 * thread's timers. lua_sethook and timer_settime are safe here: they only store. */
static void on_limit_signal(int signo, siginfo_t *info, void *context) {
  (void)signo; (void)info; (void)context;
  pss_context *ctx = armed_here;
  if (ctx == NULL) {
    if (timers_state == 1) {
      int saved = errno;
      set_timer(cpu_timer, 0);
      set_timer(deadline_timer, 0);
      errno = saved;
    }
    return;
  }
  int repeated = atomic_exchange(&ctx->alarm, 1);
  lua_State *running = atomic_load(&ctx->running);
  if (repeated) {
    /* The hook has not looked at the clocks since the last signal (PSS_RESIGNAL_NS ago): the
     * instructions are slow ones. It looks at the next instruction. */
    if (running != NULL) lua_sethook(running, pss_hook, LUA_MASKCOUNT, 1);
    lua_sethook(ctx->L, pss_hook, LUA_MASKCOUNT, 1);
    return;
  }
  if (running != NULL) hook_on(running);
  hook_on(ctx->L);
}

static void install_handler(void) {
  limit_signal = SIGRTMIN + 4;
  struct sigaction action = {0};
  action.sa_sigaction = on_limit_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  handler_installed = sigaction(limit_signal, &action, NULL) == 0;
}

static int make_timer(clockid_t clock, timer_t *timer) {
  struct sigevent event = {0};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = limit_signal;
  event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  return timer_create(clock, &event, timer) == 0;
}

/* Makes this thread's timers once; 0 when they cannot be had. */
static int thread_timers(void) {
  if (timers_state == 0) {
    pthread_once(&handler_once, install_handler);
    timers_state = -1;
    /* Threads made by a dispatch queue's thread inherit its mask, which blocks signals. */
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, limit_signal);
    if (handler_installed && pthread_sigmask(SIG_UNBLOCK, &only, NULL) == 0 &&
        make_timer(CLOCK_THREAD_CPUTIME_ID, &cpu_timer)) {
      if (make_timer(CLOCK_MONOTONIC, &deadline_timer)) timers_state = 1;
      else timer_delete(cpu_timer);
    }
  }
  return timers_state == 1;
}

/* Sets `timer` to fire at `at_ns` and every PSS_RESIGNAL_NS after (of its own clock), or
 * disarms it when `at_ns` is 0. */
static void set_timer(timer_t timer, int64_t at_ns) {
  struct itimerspec spec = {0};
  spec.it_value.tv_sec = at_ns / 1000000000;
  spec.it_value.tv_nsec = at_ns % 1000000000;
  if (at_ns) spec.it_interval.tv_nsec = PSS_RESIGNAL_NS;
  timer_settime(timer, at_ns ? TIMER_ABSTIME : 0, &spec, NULL);
}

lua_State *pss_enter_thread(pss_context *ctx, lua_State *co) {
  lua_State *previous = atomic_exchange(&ctx->running, co);
  if (atomic_load(&ctx->alarm)) hook_on(co);
  return previous;
}

void pss_leave_thread(pss_context *ctx, lua_State *previous) {
  atomic_store(&ctx->running, previous);
  if (atomic_load(&ctx->alarm) && previous != NULL) hook_on(previous);
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
  if (ctx->cpu_budget_ns && (atomic_load(&ctx->alarm) || now - ctx->cpu_checked_ns >= PSS_CPU_CHECK_NS)) {
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
    if (trip == PSS_TRIP_NONE) {
      if (ctx->timed || !ctx->armed) {
        /* A late signal, or a hook left from an earlier run: off again. A signal that comes
         * while it is taken off sets it again. */
        atomic_store(&ctx->alarm, 0);
        lua_sethook(L, NULL, 0, 0);
        if (atomic_load(&ctx->alarm)) hook_on(L);
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

void pss_charge_check(lua_State *L, pss_context *ctx) {
  ctx->steps = 0;
  int trip = atomic_load(&ctx->trip);
  if (trip == PSS_TRIP_NONE) trip = clocks_tripped(ctx);
  if (trip == PSS_TRIP_NONE) return;
  pss_trip_set(ctx, L, trip);
  pss_raise_kill(L);
}

void pss_charge_ahead(lua_State *L, size_t work) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL || !ctx->armed || ctx->cpu_budget_ns == 0) return;
  int64_t ahead = work > (size_t)(INT64_MAX / PSS_AHEAD_PS_PER_STEP) / 1000
                      ? INT64_MAX / 2
                      : (int64_t)work * PSS_AHEAD_PS_PER_STEP / 1000;
  int64_t used = pss_thread_cpu_now_ns() - ctx->cpu_start_ns;
  ctx->cpu_checked_ns = pss_monotonic_now_ns();
  if (used < ctx->cpu_budget_ns && ahead < ctx->cpu_budget_ns - used) return;
  pss_trip_set(ctx, L, PSS_TRIP_CPU);
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
  int timed = thread_timers();
  pthread_mutex_lock(&ctx->thread_lock);
  ctx->thread = pthread_self();
  ctx->thread_known = 1;
  ctx->armed_slot = &armed_here;
  armed_here = NULL;
  atomic_store(&ctx->trip, PSS_TRIP_NONE);
  atomic_store(&ctx->cancel, 0);
  atomic_store(&ctx->alarm, 0);
  atomic_store(&ctx->running, ctx->L);
  ctx->timed = timed;
  ctx->cpu_budget_ns = cpu_budget_ns;
  ctx->cpu_start_ns = pss_thread_cpu_now_ns();
  ctx->limit = memory_limit;
  ctx->steps = 0;
  ctx->memory_refused = 0;
  ctx->cpu_checked_ns = pss_monotonic_now_ns();
  ctx->deadline_ns = deadline_ns;
  ctx->armed = 1;
  if (timed) {
    lua_sethook(ctx->L, NULL, 0, 0);
    armed_here = ctx;
    int64_t cpu_at = cpu_budget_ns ? ctx->cpu_start_ns + cpu_budget_ns : 0;
    if (cpu_at < 0) cpu_at = INT64_MAX;  /* a budget past the clock's end */
    set_timer(cpu_timer, cpu_at);
    set_timer(deadline_timer, deadline_ns);
  } else {
    lua_sethook(ctx->L, pss_hook, LUA_MASKCOUNT, PSS_HOOK_COUNT);
  }
  pthread_mutex_unlock(&ctx->thread_lock);
}

void pss_limits_disarm(pss_context *ctx) {
  pthread_mutex_lock(&ctx->thread_lock);
  ctx->armed = 0;
  /* The timers stay set: the next arm sets them anew, and one that fires before that finds no
   * armed run and stops them (two system calls a run saved). */
  if (ctx->timed && armed_here == ctx) armed_here = NULL;
  ctx->armed_slot = NULL;
  ctx->thread_known = 0;
  pthread_mutex_unlock(&ctx->thread_lock);
}

void pss_limits_forget(pss_context *ctx) {
  pthread_mutex_lock(&ctx->thread_lock);
  if (ctx->armed_slot != NULL && *ctx->armed_slot == ctx) *ctx->armed_slot = NULL;
  if (ctx->timed && armed_here == NULL && ctx->armed_slot == &armed_here) {
    set_timer(cpu_timer, 0);
    set_timer(deadline_timer, 0);
  }
  ctx->armed_slot = NULL;
  ctx->thread_known = 0;
  pthread_mutex_unlock(&ctx->thread_lock);
}

void pss_cancel(pss_context *ctx) {
  atomic_store(&ctx->cancel, 1);
  pthread_mutex_lock(&ctx->thread_lock);
  if (ctx->thread_known && ctx->timed) pthread_kill(ctx->thread, limit_signal);
  pthread_mutex_unlock(&ctx->thread_lock);
}

int64_t pss_run_cpu_ns(pss_context *ctx) {
  int64_t used = -1;
  pthread_mutex_lock(&ctx->thread_lock);
  clockid_t clock;
  struct timespec ts;
  if (ctx->thread_known && pthread_getcpuclockid(ctx->thread, &clock) == 0 &&
      clock_gettime(clock, &ts) == 0) {
    used = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - ctx->cpu_start_ns;
  }
  pthread_mutex_unlock(&ctx->thread_lock);
  return used;
}

void pss_trip_request(pss_context *ctx, pss_trip trip) { pss_trip_set(ctx, NULL, (int)trip); }

pss_trip pss_trip_of(pss_context *ctx) { return (pss_trip)atomic_load(&ctx->trip); }
size_t pss_memory_used(pss_context *ctx) { return ctx->used; }
size_t pss_memory_peak(pss_context *ctx) { return ctx->peak; }
void pss_memory_peak_reset(pss_context *ctx) { ctx->peak = ctx->used; }
