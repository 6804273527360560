/* PushScript's sandbox engine over Lua 5.4 (CLuaSandbox): the only code that raises Lua errors.
 * This header declares its entry points (pss.c), and includes what they take: the shared types
 * and the value format (pss_types.h), byte buffers (pss_buffer.h), the clocks (pss_clock.h).
 *
 * Every function declared here is safe to call from Swift: none of them raises (longjmps);
 * each runs its Lua work inside lua_pcall and reports failure through its return value.
 * Values cross between Lua and the host as byte buffers in the format pss_types.h describes,
 * so Swift code never pushes onto a Lua stack and never calls an API that can raise. */
#ifndef PSS_H
#define PSS_H

#include <stddef.h>
#include <stdint.h>
#include "pss_buffer.h"
#include "pss_clock.h"
#include "pss_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- States ------------------------------------------------------------------------------ */

/* Sets the process-wide dispatch function of host calls (pss_types.h; once, before any state is
 * made). */
void pss_set_dispatch(pss_dispatch_fn fn);
/* Sets the process-wide function of host objects' text fields (pss_types.h; once, before any
 * state is made). */
void pss_set_field_dispatch(pss_field_fn fn);

/* Makes a sandboxed state: the capped allocator (limit in bytes), the limit hook, the safe
 * library with its guarded functions, and an empty host module table. `host` is handed back
 * to the dispatch function. Returns NULL when even that does not fit. */
pss_context *pss_state_new(size_t memory_limit, void *host);
/* Sets the pointer handed back to the dispatch function. */
void pss_set_host(pss_context *ctx, void *host);
/* Closes the state and frees the context. Safe: no finalizer can run (scripts cannot arm
 * one), so this never runs script code. */
void pss_state_close(pss_context *ctx);

/* Arms the limits for a run on the calling thread: the CPU budget is measured from now on
 * this thread's CPU clock; `deadline_ns` is on CLOCK_MONOTONIC (0 = none); the memory limit
 * is set to `memory_limit`. Clears an earlier trip and the cancel flag. The CPU budget and the
 * deadline are timers of this thread: until one fires, no hook slows the script down. A run
 * must be disarmed on the thread that armed it. */
void pss_limits_arm(pss_context *ctx, int64_t cpu_budget_ns, int64_t deadline_ns,
                    size_t memory_limit);
/* Stops checking the clocks (the memory limit stays). */
void pss_limits_disarm(pss_context *ctx);
/* Asks a running script to stop at its next check, as if its deadline had come, and signals
 * the thread the run is armed on so that a script in Lua code stops at once. Safe from any
 * thread. */
void pss_cancel(pss_context *ctx);
/* CPU time the armed run's thread used since the run was armed, read from any thread; -1 when
 * no run is armed. */
int64_t pss_run_cpu_ns(pss_context *ctx);
/* Records a trip from host code (e.g. the deadline came during a download). */
void pss_trip_request(pss_context *ctx, pss_trip trip);
/* The tripped limit, or PSS_TRIP_NONE. */
pss_trip pss_trip_of(pss_context *ctx);
/* A limit's name, as the host reports it ("cpu"; "none" for PSS_TRIP_NONE): PSS_LIMITS's. */
const char *pss_trip_name(pss_trip trip);
size_t pss_memory_used(pss_context *ctx);
size_t pss_memory_peak(pss_context *ctx);
void pss_memory_peak_reset(pss_context *ctx);
/* The bytes the state may hold now: its limit as last armed. */
size_t pss_memory_limit(pss_context *ctx);
/* The limit of the armed run that has passed by now (the CPU budget or the deadline), or an
 * earlier trip, or PSS_TRIP_NONE. Reads the clocks (the check the hook makes, pss_kill.h);
 * records no trip. For host code that works long for one call, on the run's thread. */
pss_trip pss_limit_passed(pss_context *ctx);
/* The backend of the limit timers this build has: "linux" (thread CPU-clock timers and a
 * signal) or "portable" (a watchdog thread; the trait PortableLimits, or a system other than
 * Linux). See pss_timer.h. */
const char *pss_limits_backend(void);

/* ---- Protected entry points ---------------------------------------------------------------
 * Each runs inside lua_pcall on the state's main thread and returns a pss_status. On
 * PSS_ERROR, `err` (when not NULL) receives the error message: the error object when it is a
 * string, else "(error object is a T value)"; no script code runs to make it. References are
 * registry references, released with pss_unref. */

/* Adds host function `fid` to every later environment, as `module.name` (or the global
 * `name` when module is NULL); the module table is made when missing. */
int pss_register(pss_context *ctx, const char *module, const char *name, int32_t fid,
                 int kind);
/* Adds a value (encoded) to every later environment, as `module.name` or `name`. */
int pss_register_value(pss_context *ctx, const char *module, const char *name,
                       const unsigned char *value, size_t length);
/* Adds `json.null`, the state's JSON null, as `module.name`. */
int pss_register_null(pss_context *ctx, const char *module, const char *name);
/* Adds the global `name` to every later environment: the value the compiled chunk returns,
 * run once now in an environment of its own with two arguments: host function `fid` (raw
 * arguments), and `given`, a function that returns what the running environment gave, or gives
 * now, under a template's name (given("string"): the run's own string table, whatever the
 * script assigned to `string` since; what `require "string"` returns, as stock Lua's
 * package.loaded holds it) or, called with no name, a table of the running environment's own
 * that no script can reach and that goes with the environment (for what lives as long as the
 * run's globals). */
int pss_register_made(pss_context *ctx, const char *name, int chunk_ref, int32_t fid);

/* Compiles text (never bytecode) into a function; errors read "chunkname:line: message"
 * (chunkname as Lua takes it: "=rules.lua" for a plain name). */
int pss_compile(pss_context *ctx, const char *source, size_t length, const char *chunkname,
                int *ref_out, pss_buffer *err);
/* Makes a fresh environment over the template (which gives it each global when a script first
 * reads that name) and makes it the one `load` defaults to. */
int pss_env_new(pss_context *ctx, int *ref_out);
/* Runs a compiled chunk with `env` as its _ENV and, when it returns, writes the Lua type of
 * each of the `count` globals `names` holds (each name ends in a NUL, the next follows it)
 * into `types`: raw reads, pss_lua_type values (-1 where the run failed). */
int pss_run_chunk(pss_context *ctx, int function_ref, int env_ref, const char *names, int count, int *types,
                  pss_buffer *err);
/* Calls env[name](args...) where args are references; PSS_MISSING when it is not a
 * function. Results are dropped. */
int pss_call_global(pss_context *ctx, int env_ref, const char *name, const int *arg_refs,
                    int nargs, pss_buffer *err);
/* Decodes a value into the state and references it. */
int pss_value_new(pss_context *ctx, const unsigned char *value, size_t length, int *ref_out);
/* Makes a read-only view named `name` of the value host function `loader` returns (a
 * read-only table), called the first time the script looks into the view, and references
 * it. */
int pss_lazy_view_new(pss_context *ctx, const char *name, int32_t loader, int *ref_out);
/* Encodes a referenced value into `out`. */
int pss_value_read(pss_context *ctx, int ref, pss_buffer *out, pss_buffer *err);
/* Defines a class of host objects: reads of keys go to `index_fid` (arguments: the key),
 * writes to `newindex_fid` (arguments: key, value); keys named in `slot_names` hold Lua
 * values of their own, which a write stores once the host accepted it. Keys named in
 * `text_names` are text fields: a read of one, and a write of a string to one, go to the field
 * dispatch function (pss_set_field_dispatch) with `text_fid`; a write of any other value goes
 * to `newindex_fid` as for any key. */
int pss_class_new(pss_context *ctx, const char *name, int32_t index_fid, int32_t newindex_fid,
                  const char *const *slot_names, int nslots, int32_t text_fid,
                  const char *const *text_names, int ntext, int *class_out);
/* Makes a host object of a class with the host's id for it. */
int pss_object_new(pss_context *ctx, int class_id, int32_t object_id, int *ref_out);
/* Stores a referenced value in slot `slot` (1-based) of an object. */
int pss_object_set_slot(pss_context *ctx, int object_ref, int slot, int value_ref);
/* Stores the value `value` encodes (`length` bytes, one value) in slot `slot` (1-based) of an
 * object, with that encoding as the slot's baseline: a read of the slot the script left as it
 * was is told apart without encoding it (pss_object_read_touched_slot). */
int pss_object_set_slot_encoded(pss_context *ctx, int object_ref, int slot,
                                const unsigned char *value, size_t length);
/* Encodes the value in slot `slot` of an object into `out`. */
int pss_object_read_slot(pss_context *ctx, int object_ref, int slot, pss_buffer *out,
                         pss_buffer *err);
/* As pss_object_read_slot, but only when a script has read or written the slot since the
 * object was made and the value differs from what the host stored (its encoding is not the
 * one the host's value had): `*touched_out` is 1 then, else 0 and `out` is to be ignored. */
int pss_object_read_touched_slot(pss_context *ctx, int object_ref, int slot, pss_buffer *out,
                                 pss_buffer *err, int *touched_out);
/* Releases a reference. */
void pss_unref(pss_context *ctx, int ref);

/* Full garbage collection (no finalizers exist, so no script code runs). */
void pss_collect(pss_context *ctx);

#ifdef __cplusplus
}
#endif
#endif
