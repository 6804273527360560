/* The trip, the limit hook, the kill, and the one check of the clocks against the limits
 * (pss_kill.c). */
#ifndef PSS_KILL_H
#define PSS_KILL_H
#include "pss_context.h"

/* Instructions between a limit timer's alarm and the hook's look at the clocks; and between
 * two runs of the count hook where the limit timers cannot be had. */
#define PSS_HOOK_COUNT 1000
/* Nanoseconds between repeated alarms once a limit is due: an alarm that finds the previous
 * one not yet acted on makes the hook fire on the next instruction, so 1,000 instructions that
 * each spend milliseconds in the VM (a `for` limit or an `==` on a string of megabytes) cannot
 * carry a script far past its limit. */
#define PSS_RESIGNAL_NS 2000000
/* Wall-clock nanoseconds between two reads of the thread's CPU clock. */
#define PSS_CPU_CHECK_NS 1000000

/* Raises the kill when a limit has already tripped, or when an allocation was refused for
 * good (the error being caught is then the memory error); returns otherwise. Cheap. Every
 * function that catches errors calls it on the errors it caught. */
void pss_check_trip(lua_State *L);
/* As pss_check_trip, but a cancel not yet acted on is left for the next check (the one after
 * a host call, or the hook): a host call that starts as the deadline comes still lands, as it
 * would a moment earlier, and the kill follows it. */
void pss_check_tripped(lua_State *L);

/* Records a tripped limit (the first one wins) and makes the hook of `L` and of the main
 * thread fire on the next instruction (none when `L` is NULL). Does not raise. */
void pss_trip_set(pss_context *ctx, lua_State *L, int trip);

/* Raises the kill for the tripped limit. Never returns. */
int pss_raise_kill(lua_State *L);

/* How pss_limits_check reads the thread's CPU clock (a system call; the wall clock is cheap). */
enum {
  /* at most once per PSS_CPU_CHECK_NS of wall time, or when an alarm asks for it: the hook and
   * the charge, which look often */
  PSS_CLOCKS_PACED = 0,
  /* now: host code that works long for one call asks between its steps */
  PSS_CLOCKS_NOW = 1,
};

/* The limit check, for everything that asks whether the armed run is past a limit (the hook,
 * the charge, the host through pss_limit_passed): on the run's own thread, returns the limit
 * that is past by now (the cancel and the deadline as the time limit, the CPU budget), or
 * PSS_TRIP_NONE; an earlier trip is not looked at. Reads the CPU clock as `how` says
 * (PSS_CLOCKS_*) and records what it read (pss_cpu_used_ns). Records no trip. */
int pss_limits_check(pss_context *ctx, int how);

/* The CPU time the armed run has used, read on its thread now (`now` on CLOCK_MONOTONIC);
 * records the reading, which other threads and the paced check go by (ctx->cpu_sample_ns,
 * cpu_checked_ns). */
int64_t pss_cpu_used_ns(pss_context *ctx, int64_t now);

/* A trip's name ("cpu"; "none" for none) and the message of its kill ("cpu limit exceeded";
 * "limit exceeded" for none): PSS_LIMITS in pss_types.h. */
const char *pss_limit_name(int trip);
const char *pss_kill_message(int trip);

/* The limit hook: set by the limit timers (or, where they are missing, as a count hook at
 * arming), and on every instruction once a limit tripped. */
void pss_hook(lua_State *L, lua_Debug *ar);

/* What a limit timer does when it fires (the Linux signal handler, the portable watchdog):
 * sets the hook on the running Lua thread and on the main thread, to look at the clocks within
 * PSS_HOOK_COUNT instructions, or at the next one when the last alarm was not acted on yet.
 * Only stores: safe in a signal handler, and from another thread that holds the running lock
 * (pss_timer.h). */
void pss_alarm(pss_context *ctx);

/* Sets the limit hook on `L` to look at the clocks within PSS_HOOK_COUNT instructions, unless
 * a limit hook is set already (it keeps its count). */
void pss_hook_on(lua_State *L);

#endif
