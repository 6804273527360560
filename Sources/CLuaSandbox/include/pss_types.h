/* The types the engine and its host share: the value format, Lua's types, the limits a run can
 * trip, the statuses of the entry points and the host calls. It declares no function, and it
 * does not include lua.h: Swift sees it (through pss.h). */
#ifndef PSS_TYPES_H
#define PSS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An enum that has no values beyond the ones it lists: Swift imports it as an enum whose
 * switch must handle every case. */
#if defined(__has_attribute)
#if __has_attribute(enum_extensibility)
#define PSS_CLOSED_ENUM __attribute__((enum_extensibility(closed)))
#endif
#endif
#ifndef PSS_CLOSED_ENUM
#define PSS_CLOSED_ENUM
#endif

/* A sandboxed state (pss.h makes and closes them). */
typedef struct pss_context pss_context;
/* A byte buffer (pss_buffer.h). */
typedef struct pss_buffer pss_buffer;

/* ---- The value format ------------------------------------------------------------------
 * A value is one tag byte (pss_tag) followed by its payload, numbers in the native byte order
 * (both sides run in one process):
 *   nil, true, false, JSON null (json.null): no payload
 *   integer: int64          float: float64
 *   string: u32 length, bytes   (a Lua string: arbitrary bytes)
 *   table: u32 n, then n (key, value) pairs   (read with raw access)
 *   array: u32 n, then n values   (a table whose keys are exactly 1..n; from Lua also an
 *                                  empty table known to be a JSON array)
 * Host to Lua only:
 *   function: i32 function id      a host function, pushed as a callable closure
 *   chunk: i32 registry reference  a compiled chunk, with the running environment as _ENV
 *   read-only: u32 n, name (n bytes), then one table or array value: a read-only view of
 *              that table, named in the error a write raises ("request is read-only")
 *   locked: one table or array value: a copy the script may change, whose metatable is
 *           locked (setmetatable refuses it)
 * Lua to host only:
 *   object: i32 object id     a host object (userdata made by pss)
 *   unsupported: u8 Lua type (pss_lua_type)   a value the format cannot carry: function,
 *                thread, foreign userdata
 *   cycle: no payload         a table met again inside itself
 *   too deep: no payload      a table nested deeper than the limit
 * A sequence of values is a u32 count followed by the values.                               */
typedef enum pss_tag {
  PSS_TAG_NIL = 'n',
  PSS_TAG_TRUE = 't',
  PSS_TAG_FALSE = 'f',
  PSS_TAG_NULL = 'z',
  PSS_TAG_INTEGER = 'i',
  PSS_TAG_FLOAT = 'd',
  PSS_TAG_STRING = 's',
  PSS_TAG_TABLE = 'T',
  PSS_TAG_ARRAY = 'A',
  PSS_TAG_FUNCTION = 'F',
  PSS_TAG_CHUNK = 'K',
  PSS_TAG_READ_ONLY = 'R',
  PSS_TAG_LOCKED = 'L',
  PSS_TAG_OBJECT = 'O',
  PSS_TAG_UNSUPPORTED = 'u',
  PSS_TAG_CYCLE = 'c',
  PSS_TAG_TOO_DEEP = 'D',
} pss_tag;

/* Lua's basic types, numbered as lua.h numbers them (LUA_TNIL...; pss_codec.c checks that
 * they agree): what pss_run_chunk reports of globals and an unsupported value carries. */
typedef enum pss_lua_type {
  PSS_LUA_NIL = 0,
  PSS_LUA_BOOLEAN = 1,
  PSS_LUA_LIGHTUSERDATA = 2,
  PSS_LUA_NUMBER = 3,
  PSS_LUA_STRING = 4,
  PSS_LUA_TABLE = 5,
  PSS_LUA_FUNCTION = 6,
  PSS_LUA_USERDATA = 7,
  PSS_LUA_THREAD = 8,
} pss_lua_type;

/* ---- Limits and trips ------------------------------------------------------------------
 * Every limit a run can trip, written once: X(NAME, name, message) for each, in the order of
 * their numbers (from 1): the C name (PSS_TRIP_NAME), the name the host reports the limit by
 * (a reason's kind; pss_trip_name in pss.h), and the message of the kill that stops the script.
 * A limit added here is a case every switch over pss_trip in Swift must handle before it
 * compiles. */
#define PSS_LIMITS(X)                                  \
  X(CPU, "cpu", "cpu limit exceeded")                  \
  X(MEMORY, "memory", "memory limit exceeded")         \
  X(TIME, "time", "time limit exceeded")

/* The limit that tripped, or none. */
#define PSS_TRIP_ENUMERATOR(NAME, name, message) PSS_TRIP_##NAME,
typedef enum PSS_CLOSED_ENUM pss_trip {
  PSS_TRIP_NONE = 0,
  PSS_LIMITS(PSS_TRIP_ENUMERATOR)
} pss_trip;
#undef PSS_TRIP_ENUMERATOR

/* How many values pss_trip has, PSS_TRIP_NONE included: the size of a table a trip indexes. */
#define PSS_TRIP_PLUS_ONE(NAME, name, message) +1
enum { PSS_TRIP_COUNT = 1 PSS_LIMITS(PSS_TRIP_PLUS_ONE) };
#undef PSS_TRIP_PLUS_ONE

/* Status of a protected entry point. */
typedef enum pss_status {
  PSS_OK = 0,
  PSS_ERROR = 1,        /* a Lua error; the message is in the error buffer */
  PSS_KILLED = 2,       /* a limit tripped (pss_trip_of tells which) */
  PSS_MISSING = 3,      /* the named global is not a function */
  PSS_UNAVAILABLE = 4,  /* the host could not allocate outside Lua */
} pss_status;

/* ---- Host calls --------------------------------------------------------------------------
 * A host function is a C closure over a trampoline; calling it encodes the arguments and
 * calls the dispatch function below on the same thread. The dispatch writes its results
 * into `out` as a value sequence and returns how it went. The trampoline raises after the
 * dispatch has returned, so no Lua error ever crosses a host frame. The dispatch may run Lua in
 * the same state only if that Lua calls no host function: such a call raises an error there
 * (`out` is the state's one scratch buffer, and it is in use). */
enum {
  PSS_HOST_RETURN = 0,  /* `out` holds the results (a value sequence) */
  PSS_HOST_ERROR = 1,   /* `out` holds the error message bytes: raised with position */
  PSS_HOST_KILL = 2,    /* a limit tripped while the host worked (pss_trip_request) */
};
typedef int (*pss_dispatch_fn)(void *host, int32_t function_id, int32_t object_id,
                               const unsigned char *args, size_t args_length, pss_buffer *out);

/* A typed access to a text field of a host object (the text fields pss_class_new names),
 * without the argument encoding of a host call: `text` is the UTF-8 of the string a script
 * assigns (`length` bytes), or NULL for a read; `field` is the field's 0-based index among the
 * class's text fields. The host answers as the dispatch function does: a read's value as a
 * value sequence in `out`, an error's message, or the kill. */
typedef int (*pss_field_fn)(void *host, int32_t function_id, int32_t object_id, int32_t field,
                            const unsigned char *text, size_t length, pss_buffer *out);

/* How a registered host function's arguments are prepared. */
enum {
  PSS_KIND_RAW = 0,       /* as they are */
  PSS_KIND_FORMAT = 1,    /* string.format(...) of them: one string */
  PSS_KIND_TOSTRING = 2,  /* tostring of each joined by tabs, as print does: one string */
};

#ifdef __cplusplus
}
#endif
#endif
