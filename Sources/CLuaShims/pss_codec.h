/* Encoding Lua values into the value format of pss.h and decoding them back. */
#ifndef PSS_CODEC_H
#define PSS_CODEC_H
#include "pss_internal.h"

/* Nesting beyond this is encoded as PSS_TAG_TOO_DEEP. */
#define PSS_CODEC_MAX_DEPTH 100
/* An encoding may not grow past the state's memory limit: a table met twice is encoded twice,
 * so a value shared many times over can have an encoding far larger than the state. This is
 * the cap of a plain state, which has no limit. */
#define PSS_CODEC_MAX_BYTES ((size_t)64 * 1024 * 1024)
/* What each table met counts against that cap beyond its bytes: the host's copy of a table
 * (a Swift value, then JSON) costs a few hundred bytes, so that a list holding one small table
 * a million times, 40 KB in the state, would cost the host hundreds of megabytes. Counted this
 * way, a copy costs the host a small multiple of the state's limit at most. */
#define PSS_CODEC_TABLE_WEIGHT ((size_t)64)

/* Appends the value at `idx` to `out`, reading tables with raw access only (no metamethod
 * runs; a read-only view is read through to the table it shows). Its work is charged step by
 * step (pss_charge: to the running script, or to a host read's allowance). Raises a Lua error
 * when memory ran out or the encoding passed the cap, and the kill when a limit tripped. */
void pss_encode_value(lua_State *L, int idx, pss_buffer *out);
/* Appends a u32 count and the values at stack indices first..first+n-1: the arguments of a
 * host call, whose encoding is charged to the running script's CPU budget (and can raise the
 * kill). */
void pss_encode_arguments(lua_State *L, int first, int n, pss_buffer *out);

/* Pushes the value that starts at `*pos` in `data` (length `len`) and advances `*pos`.
 * Raises a Lua error on a malformed buffer. */
void pss_decode_value(lua_State *L, const unsigned char *data, size_t len, size_t *pos);
/* Pushes a value sequence; returns how many values were pushed. */
int pss_decode_values(lua_State *L, const unsigned char *data, size_t len);

/* Whether the value at `idx` is the value the encoding `data` (length `len`, one value)
 * decodes to: the same types, numbers, strings and tables, read as pss_encode_value reads
 * them. Conservative: a function, host object or anything else a decoded value cannot be
 * counts as different, as does a malformed encoding. */
int pss_same_as_encoded(lua_State *L, int idx, const unsigned char *data, size_t len);

/* Whether the table at `idx` (absolute) is marked as a JSON array (for empty tables). */
int pss_marked_array(lua_State *L, int idx);
/* Marks the table on top of the stack as a JSON array (so that it encodes back as []). */
void pss_mark_array(lua_State *L);

/* When the table at `idx` is a read-only view, pushes its name and the table it shows (on
 * top) and returns 1; else pushes nothing and returns 0. */
int pss_read_only_view(lua_State *L, int idx);
/* Sets __newindex, __len and __pairs of the table on top of the stack to these C functions
 * (pss_view.c; the lazy library tables' metatables use it too). */
void pss_set_access_metamethods(lua_State *L, lua_CFunction newindex, lua_CFunction len,
                                lua_CFunction pairs);
/* Replaces the table on top of the stack by a read-only view of it named `name`. */
void pss_make_read_only(lua_State *L, const char *name, size_t name_len);

/* Pushes a lazy read-only view named `name`: it shows the table that host function `loader`
 * returns as a read-only view, called when the view is first looked into (see pss_view.c). */
void pss_push_lazy_view(lua_State *L, const char *name, size_t name_len, int32_t loader);
/* Pushes the cached callable closure for host function `fid`. */
void pss_push_host_function(lua_State *L, int32_t fid);

#endif
