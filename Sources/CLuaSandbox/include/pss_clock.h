/* The clocks the limits are measured on (pss_clock.c), in nanoseconds. */
#ifndef PSS_CLOCK_H
#define PSS_CLOCK_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The calling thread's CPU time. */
int64_t pss_thread_cpu_now_ns(void);
/* CLOCK_MONOTONIC: what deadlines are set on. */
int64_t pss_monotonic_now_ns(void);

#ifdef __cplusplus
}
#endif
#endif
