/* The limit timers on Linux (pss_timer.h): POSIX timers of the run's own thread and a
 * real-time signal.
 *
 * Arming a run sets two timers of the calling thread: one on its CPU clock
 * (CLOCK_THREAD_CPUTIME_ID) at the end of the CPU budget and one on CLOCK_MONOTONIC at the
 * deadline, both signalling this very thread (SIGEV_THREAD_ID, SIGRTMIN+4). The cancel sends
 * the same signal. The handler calls pss_alarm, which sets the hook. The timers fire again
 * every PSS_RESIGNAL_NS.
 *
 * A timer is only ever set earlier than its run needs, never later: arming leaves a timer
 * that a past run set at or before the new run's end of budget (or deadline), and a timer that
 * fires before its run's limit is set again, from the handler, at that limit. Disarming leaves
 * the timers set; a signal that finds no armed run on its thread stops them. So a run in its
 * limits makes no timer call at all: a timer comes early about once per budget of the
 * thread's CPU time and once per deadline of wall time, and is set then. */
#define _GNU_SOURCE
#include "pss_timer.h"
#if PSS_TIMER_LINUX
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "pss_clock.h"
#include "pss_context.h"
#include "pss_kill.h"

/* The context armed on this thread, for the signal handler. */
static _Thread_local pss_context *armed_here;
/* This thread's timers: 0 not made yet, 1 made, -1 cannot be made. */
static _Thread_local int timers_state;
static _Thread_local timer_t cpu_timer, deadline_timer;
/* When each timer is set to fire first (of its own clock, ns; 0 = stopped). Written by this
 * thread and by the handler on it. */
static _Thread_local volatile int64_t cpu_timer_at, deadline_timer_at;

/* The sigev_value of each timer, telling the handler which one fired. */
enum { CPU_TIMER = 1, DEADLINE_TIMER = 2 };

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static int limit_signal;
static int handler_installed;

static void set_timer(timer_t timer, volatile int64_t *at, int64_t at_ns);

/* A timer of the armed run that fired before the run's limit on its clock is set at that
 * limit (or stopped, the run having none): 1 when it was, 0 when the limit is due. */
static int set_again_if_early(pss_context *ctx, int which) {
  int cpu = which == CPU_TIMER;
  int64_t limit = cpu ? (ctx->cpu_budget_ns ? ctx->cpu_start_ns + ctx->cpu_budget_ns : 0) : ctx->deadline_ns;
  if (cpu && limit < 0) limit = INT64_MAX;
  if (limit != 0 && (cpu ? pss_thread_cpu_now_ns() : pss_monotonic_now_ns()) >= limit) return 0;
  set_timer(cpu ? cpu_timer : deadline_timer, cpu ? &cpu_timer_at : &deadline_timer_at, limit);
  return 1;
}

/* The limit signal. On a thread with no armed run (a timer of a run that ended, which
 * disarming leaves set) it stops this thread's timers; a timer that came early is set again
 * (see above). lua_sethook, clock_gettime and timer_settime are safe here: they only store
 * and read. */
static void on_limit_signal(int signo, siginfo_t *info, void *context) {
  (void)signo; (void)context;
  pss_context *ctx = armed_here;
  int saved = errno;
  if (ctx == NULL) {
    if (timers_state == 1) {
      set_timer(cpu_timer, &cpu_timer_at, 0);
      set_timer(deadline_timer, &deadline_timer_at, 0);
    }
  } else if (info == NULL || info->si_code != SI_TIMER ||
             !set_again_if_early(ctx, info->si_value.sival_int)) {
    /* the cancel (pthread_kill), or a limit that may be due */
    pss_alarm(ctx);
  }
  errno = saved;
}

static void install_handler(void) {
  limit_signal = SIGRTMIN + 4;
  struct sigaction action = {0};
  action.sa_sigaction = on_limit_signal;
  action.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&action.sa_mask);
  handler_installed = sigaction(limit_signal, &action, NULL) == 0;
}

static int make_timer(clockid_t clock, int which, timer_t *timer) {
  struct sigevent event = {0};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = limit_signal;
  event.sigev_value.sival_int = which;
  event._sigev_un._tid = (pid_t)syscall(SYS_gettid);
  return timer_create(clock, &event, timer) == 0;
}

/* Sets `timer` to fire at `at_ns` and every PSS_RESIGNAL_NS after (of its own clock), or
 * disarms it when `at_ns` is 0, and notes so in `at`. */
static void set_timer(timer_t timer, volatile int64_t *at, int64_t at_ns) {
  *at = at_ns;
  struct itimerspec spec = {0};
  spec.it_value.tv_sec = at_ns / 1000000000;
  spec.it_value.tv_nsec = at_ns % 1000000000;
  if (at_ns) spec.it_interval.tv_nsec = PSS_RESIGNAL_NS;
  timer_settime(timer, at_ns ? TIMER_ABSTIME : 0, &spec, NULL);
}

void pss_timer_init(pss_context *ctx) { ctx->timer.armed_slot = NULL; }
void pss_timer_destroy(pss_context *ctx) { (void)ctx; }

/* Makes this thread's timers once; 0 when they cannot be had. */
int pss_timer_prepare(void) {
  if (timers_state == 0) {
    pthread_once(&handler_once, install_handler);
    timers_state = -1;
    /* Threads made by a dispatch queue's thread inherit its mask, which blocks signals. */
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, limit_signal);
    if (handler_installed && pthread_sigmask(SIG_UNBLOCK, &only, NULL) == 0 &&
        make_timer(CLOCK_THREAD_CPUTIME_ID, CPU_TIMER, &cpu_timer)) {
      if (make_timer(CLOCK_MONOTONIC, DEADLINE_TIMER, &deadline_timer)) timers_state = 1;
      else timer_delete(cpu_timer);
    }
  }
  /* a signal until the timers are set finds no run, and stops them */
  armed_here = NULL;
  return timers_state == 1;
}

void pss_timer_arm(pss_context *ctx) {
  ctx->timer.armed_slot = &armed_here;
  armed_here = ctx;
  int64_t cpu_at = ctx->cpu_budget_ns ? ctx->cpu_start_ns + ctx->cpu_budget_ns : 0;
  if (cpu_at < 0) cpu_at = INT64_MAX;  /* a budget past the clock's end */
  /* A timer set at or before the limit stays: coming early, it is set again then. One stopped
   * or set later is set now. A run with no limit on a clock leaves that timer as it is: when
   * it fires, the handler stops it. */
  if (cpu_at != 0 && (cpu_timer_at == 0 || cpu_timer_at > cpu_at)) set_timer(cpu_timer, &cpu_timer_at, cpu_at);
  int64_t deadline_at = ctx->deadline_ns;
  if (deadline_at != 0 && (deadline_timer_at == 0 || deadline_timer_at > deadline_at))
    set_timer(deadline_timer, &deadline_timer_at, deadline_at);
}

void pss_timer_disarm(pss_context *ctx) {
  /* The timers stay set: the next arm sets them anew, and one that fires before that finds no
   * armed run and stops them (two system calls a run saved). */
  if (ctx->timed && armed_here == ctx) armed_here = NULL;
  ctx->timer.armed_slot = NULL;
}

void pss_timer_forget(pss_context *ctx) {
  if (ctx->timer.armed_slot != NULL && *ctx->timer.armed_slot == ctx) *ctx->timer.armed_slot = NULL;
  if (ctx->timed && armed_here == NULL && ctx->timer.armed_slot == &armed_here) {
    set_timer(cpu_timer, &cpu_timer_at, 0);
    set_timer(deadline_timer, &deadline_timer_at, 0);
  }
  ctx->timer.armed_slot = NULL;
}

void pss_timer_cancel(pss_context *ctx) { pthread_kill(ctx->thread, limit_signal); }

int64_t pss_timer_run_cpu_ns(pss_context *ctx) {
  clockid_t clock;
  struct timespec ts;
  if (pthread_getcpuclockid(ctx->thread, &clock) != 0 || clock_gettime(clock, &ts) != 0) return -1;
  int64_t used = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - ctx->cpu_start_ns;
  return used < 0 ? 0 : used;
}

void pss_timer_lock_running(pss_context *ctx) { (void)ctx; }
void pss_timer_unlock_running(pss_context *ctx) { (void)ctx; }

void pss_timer_wait_poke(pss_context *ctx) { (void)ctx; }

const char *pss_timer_backend(void) { return "linux"; }

#endif
