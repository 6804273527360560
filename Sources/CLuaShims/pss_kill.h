/* The trip, the limit hook and the kill (pss_kill.c). */
#ifndef PSS_KILL_H
#define PSS_KILL_H
#include "pss_internal.h"

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

/* Reads the clocks of the armed run on its own thread; returns the limit that is past, if
 * any (pss_trip), and records what it read of the CPU clock (ctx->cpu_sample_ns). */
int pss_clocks_tripped(pss_context *ctx);

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
