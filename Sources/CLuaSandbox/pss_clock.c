/* The clocks of pss_clock.h. */
#include <time.h>
#include "pss_clock.h"

/* This thread's last CPU clock reading and the monotonic time it was taken at (0: none). */
static _Thread_local int64_t last_cpu_ns, last_read_at_ns;

int64_t pss_thread_cpu_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  last_cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
  last_read_at_ns = pss_monotonic_now_ns();
  return last_cpu_ns;
}

int64_t pss_thread_cpu_since_ns(int64_t now_ns) {
  int64_t gap = now_ns - last_read_at_ns;
  if (last_read_at_ns != 0 && gap >= 0 && gap < PSS_CPU_REUSE_NS) return last_cpu_ns + gap;
  return pss_thread_cpu_now_ns();
}

int64_t pss_monotonic_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
