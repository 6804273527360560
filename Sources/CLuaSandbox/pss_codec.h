/* Encoding Lua values into the value format of pss_types.h and decoding them back
 * (pss_codec.c). */
#ifndef PSS_CODEC_H
#define PSS_CODEC_H
#include "pss_context.h"

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

/* What the codec needs of the host layer, which registers it once (pss_host_open), as a parser
 * is given a table of callbacks: host functions and host objects are the host's, and the codec
 * does not know how they are made. */
typedef struct pss_codec_host {
  /* pushes the callable closure for host function `fid` (a function value decoded) */
  void (*push_function)(lua_State *L, int32_t fid);
  /* the object id of the host object at `idx` (absolute), or -1 when it is not one */
  int32_t (*object_id)(lua_State *L, int idx);
} pss_codec_host;
/* Registers the host layer's callbacks: until then a function value does not decode, and no
 * userdata encodes as an object. */
void pss_codec_set_host(const pss_codec_host *host);

/* Makes the state's json.null (ctx->ref_null), the value PSS_TAG_NULL decodes to; the state's
 * set-up calls it. */
void pss_codec_open(lua_State *L);

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

#endif
