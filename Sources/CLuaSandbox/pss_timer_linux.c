/* The limit timers on Linux (pss_timer.h): POSIX timers of the run's own thread and a
 * real-time signal.
 *
 * Arming a run sets two timers of the calling thread: one on its CPU clock
 * (CLOCK_THREAD_CPUTIME_ID) at the end of the CPU budget and one on CLOCK_MONOTONIC at the
 * deadline, both signalling this very thread (SIGEV_THREAD_ID, SIGRTMIN+4). The cancel sends
 * the same signal. The handler calls pss_alarm, which sets the hook. The timers fire again
 * every PSS_RESIGNAL_NS. Disarming leaves the timers set (the next arm sets them again); a
 * signal that finds no armed run on its thread stops them. */
#define _GNU_SOURCE
#include "pss_timer.h"
#if PSS_TIMER_LINUX
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "pss_context.h"
#include "pss_kill.h"

/* The context armed on this thread, for the signal handler. */
static _Thread_local pss_context *armed_here;
/* This thread's timers: 0 not made yet, 1 made, -1 cannot be made. */
static _Thread_local int timers_state;
static _Thread_local timer_t cpu_timer, deadline_timer;

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static int limit_signal;
static int handler_installed;

static void set_timer(timer_t timer, int64_t at_ns);

/* The limit signal. On a thread with no armed run (a timer of a run that ended, which
 * disarming leaves set) it stops this thread's timers. lua_sethook and timer_settime are safe
 * here: they only store. */
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
  pss_alarm(ctx);
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

/* Sets `timer` to fire at `at_ns` and every PSS_RESIGNAL_NS after (of its own clock), or
 * disarms it when `at_ns` is 0. */
static void set_timer(timer_t timer, int64_t at_ns) {
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
        make_timer(CLOCK_THREAD_CPUTIME_ID, &cpu_timer)) {
      if (make_timer(CLOCK_MONOTONIC, &deadline_timer)) timers_state = 1;
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
  set_timer(cpu_timer, cpu_at);
  set_timer(deadline_timer, ctx->deadline_ns);
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
    set_timer(cpu_timer, 0);
    set_timer(deadline_timer, 0);
  }
  ctx->timer.armed_slot = NULL;
}

void pss_timer_cancel(pss_context *ctx) { pthread_kill(ctx->thread, limit_signal); }

int64_t pss_timer_run_cpu_ns(pss_context *ctx) {
  clockid_t clock;
  struct timespec ts;
  if (pthread_getcpuclockid(ctx->thread, &clock) != 0 || clock_gettime(clock, &ts) != 0) return -1;
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec - ctx->cpu_start_ns;
}

void pss_timer_lock_running(pss_context *ctx) { (void)ctx; }
void pss_timer_unlock_running(pss_context *ctx) { (void)ctx; }

void pss_timer_wait_poke(pss_context *ctx) { (void)ctx; }

const char *pss_timer_backend(void) { return "linux"; }

#endif
