/* The clocks the limits are measured on (pss_clock.c), in nanoseconds. */
#ifndef PSS_CLOCK_H
#define PSS_CLOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The calling thread's CPU time (a system call on Linux, about 0.3 to 0.6 µs). */
int64_t pss_thread_cpu_now_ns(void);
/* How recent this thread's last CPU clock reading must be for pss_thread_cpu_since_ns to
 * build on it instead of reading the clock again. */
#define PSS_CPU_REUSE_NS 50000
/* The calling thread's CPU time as a run's starting point, given the monotonic time now: when
 * this thread read its CPU clock under PSS_CPU_REUSE_NS ago (the end of the run before, as a
 * rule, when runs follow each other), that reading plus the wall time since, which the thread
 * used at most; else the clock read now. Built on, it is never earlier than the thread's true
 * CPU time: a run is never charged work done before it began, and is charged up to
 * PSS_CPU_REUSE_NS less only when the thread was off its core in that short gap; it is exact
 * when the thread ran all along since that reading (the busy case, where reading the clock
 * twice per run costs most). */
int64_t pss_thread_cpu_since_ns(int64_t now_ns);
/* CLOCK_MONOTONIC: what deadlines are set on. */
int64_t pss_monotonic_now_ns(void);

#ifdef __cplusplus
}
#endif
#endif
