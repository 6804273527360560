/* Fuzz target: the value codec between Lua and Swift (pss_codec.c).
 *
 * The input is taken as an encoded value sequence, as Swift hands arguments and results to C.
 * Decoding it into a sandboxed state (pss_state_new, as the host makes them) must either fail with a Lua error (a malformed buffer) or
 * push values. Encoding those values gives bytes that decode again unless they hold a value
 * that only goes from Lua to Swift (a function or userdata is encoded as 'u' and its type);
 * when they do, encoding and decoding once more must give the same bytes. Anything else — a
 * crash, a sanitizer report, two encodings that differ — is a finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>
#include "pss.h"
#include "pss_codec.h"

typedef struct codec_args {
  const unsigned char *data;
  size_t size;
  pss_buffer *out;
} codec_args;

/* Decodes a->data and appends the encoding of every value decoded (count first) to a->out. */
static int p_round(lua_State *L) {
  codec_args *a = lua_touserdata(L, 1);
  lua_settop(L, 0);
  int n = pss_decode_values(L, a->data, a->size);
  unsigned char count[4] = {(unsigned char)n, (unsigned char)(n >> 8), (unsigned char)(n >> 16), (unsigned char)(n >> 24)};
  if (!pss_buffer_append(a->out, count, 4)) return luaL_error(L, "out of memory");
  for (int i = 1; i <= n; i++) pss_encode_value(L, i, a->out);
  return 0;
}

static int round_trip(lua_State *L, const unsigned char *data, size_t size, pss_buffer *out) {
  codec_args a = {data, size, out};
  lua_pushcfunction(L, p_round);
  lua_pushlightuserdata(L, &a);
  int status = lua_pcall(L, 1, 0, 0);
  lua_settop(L, 0);
  return status == LUA_OK;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  pss_context *ctx = pss_state_new((size_t)64 << 20, NULL);
  if (ctx == NULL) return 0;
  lua_State *L = ctx->L;
  pss_buffer first, second, third;
  pss_buffer_init(&first);
  pss_buffer_init(&second);
  pss_buffer_init(&third);
  if (round_trip(L, data, size, &first)) {
    /* `first` is a count and the values: the same shape as a value sequence. */
    if (round_trip(L, (const unsigned char *)first.data, first.length, &second)) {
      if (!round_trip(L, (const unsigned char *)second.data, second.length, &third)) {
        fprintf(stderr, "value_codec: an encoding of decoded values does not decode\n");
        abort();
      }
    }
    if (third.length > 0 && (second.length != third.length || memcmp(second.data, third.data, second.length) != 0)) {
      fprintf(stderr, "value_codec: encoding decoded values twice gives different bytes\n");
      abort();
    }
  }
  pss_buffer_free(&first);
  pss_buffer_free(&second);
  pss_buffer_free(&third);
  pss_state_close(ctx);
  return 0;
}
