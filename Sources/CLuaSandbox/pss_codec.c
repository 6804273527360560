/* The value format of pss_types.h: Lua values to bytes (raw access, no script code runs) and
 * back. Proxies are read through pss_proxy_fill; host functions and host objects through the
 * callbacks the host layer registers. */
#include <string.h>
#include "pss_array_mark.h"
#include "pss_charge.h"
#include "pss_codec.h"
#include "pss_proxy.h"

/* pss.h numbers Lua's types as lua.h does, for Swift, which does not see lua.h. */
_Static_assert(PSS_LUA_NIL == LUA_TNIL && PSS_LUA_BOOLEAN == LUA_TBOOLEAN &&
               PSS_LUA_LIGHTUSERDATA == LUA_TLIGHTUSERDATA && PSS_LUA_NUMBER == LUA_TNUMBER &&
               PSS_LUA_STRING == LUA_TSTRING && PSS_LUA_TABLE == LUA_TTABLE &&
               PSS_LUA_FUNCTION == LUA_TFUNCTION && PSS_LUA_USERDATA == LUA_TUSERDATA &&
               PSS_LUA_THREAD == LUA_TTHREAD && LUA_NUMTYPES == 9,
               "pss_lua_type must number Lua's types as lua.h does");

typedef struct encoder {
  pss_buffer *out;
  size_t max_bytes;  /* the encoding may not grow past this */
  size_t weight;     /* what the copy costs the host beyond its bytes (tables met) */
  const void *path[PSS_CODEC_MAX_DEPTH + 1];
  int depth;
} encoder;

static void too_large(lua_State *L, encoder *e) {
  luaL_error(L, "value too large to convert: its copy would pass the host's budget of %d bytes "
                "(the memory limit), a table counting once for every place it is used",
             (int)(e->max_bytes > INT32_MAX ? INT32_MAX : e->max_bytes));
}

/* Counts `n` bytes against the budget, or raises. */
static void spend(lua_State *L, encoder *e, size_t n) {
  size_t spent = e->out->length + e->weight;
  if (spent > e->max_bytes || n > e->max_bytes - spent) too_large(L, e);
}

static void put_bytes(lua_State *L, encoder *e, const void *p, size_t n) {
  spend(L, e, n);
  if (!pss_buffer_append(e->out, p, n)) luaL_error(L, "not enough memory");
}

static void put_u8(lua_State *L, encoder *e, unsigned char v) { put_bytes(L, e, &v, 1); }

static void put_u32(lua_State *L, encoder *e, uint32_t v) { put_bytes(L, e, &v, 4); }

static _Atomic(const pss_codec_host *) host_calls = NULL;

void pss_codec_set_host(const pss_codec_host *host) {
  atomic_store_explicit(&host_calls, host, memory_order_release);
}

static const pss_codec_host *host(void) { return atomic_load_explicit(&host_calls, memory_order_acquire); }

static int null_tostring(lua_State *L) {
  lua_pushliteral(L, "null");
  return 1;
}

void pss_codec_open(lua_State *L) {
  /* json.null: one locked userdata per state */
  lua_newuserdatauv(L, 1, 0);
  lua_createtable(L, 0, 3);
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pushliteral(L, "json.null");
  lua_setfield(L, -2, "__name");
  lua_pushcfunction(L, null_tostring);
  lua_setfield(L, -2, "__tostring");
  lua_setmetatable(L, -2);
  pss_ctx(L)->ref_null = luaL_ref(L, LUA_REGISTRYINDEX);
}

static void encode(lua_State *L, encoder *e, int idx);

static void encode_table(lua_State *L, encoder *e, int idx) {
  luaL_checkstack(L, 6, "value too deep to convert");
  /* a read-only view encodes as the table it shows; a lazy table as its copy */
  if (pss_proxy_fill(L, idx, PSS_PROXY_SHOW)) {
    encode_table(L, e, lua_gettop(L));
    lua_pop(L, 1);
    return;
  }
  const void *p = lua_topointer(L, idx);
  for (int i = 0; i < e->depth; i++) {
    if (e->path[i] == p) { put_u8(L, e, PSS_TAG_CYCLE); return; }
  }
  if (e->depth >= PSS_CODEC_MAX_DEPTH) { put_u8(L, e, PSS_TAG_TOO_DEEP); return; }
  luaL_checkstack(L, 4, "value too deep to convert");
  /* First pass: count the entries and see whether the keys are exactly 1..n. Each lua_next
   * is charged as a walk along a chain (PSS_CHARGE_NEXT). */
  uint64_t count = 0, largest = 0;
  int sequence = 1;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    pss_charge(L, PSS_CHARGE_NEXT);
    count++;
    if (sequence) {
      lua_Integer k;
      if (!lua_isinteger(L, -2) || (k = lua_tointeger(L, -2)) < 1 || (uint64_t)k > UINT32_MAX)
        sequence = 0;
      else if ((uint64_t)k > largest)
        largest = (uint64_t)k;
    }
    lua_pop(L, 1);
  }
  if (count > UINT32_MAX) too_large(L, e);
  if (sequence && count > 0) {
    /* n distinct positive integer keys are 1..n exactly when none is larger than n */
    sequence = largest == count;
  } else if (count == 0) {
    sequence = pss_marked_array(L, idx);
  }
  /* the host's copy of a table costs far more than its five bytes here */
  spend(L, e, PSS_CODEC_TABLE_WEIGHT);
  e->weight += PSS_CODEC_TABLE_WEIGHT;
  e->path[e->depth++] = p;
  put_u8(L, e, sequence ? PSS_TAG_ARRAY : PSS_TAG_TABLE);
  put_u32(L, e, (uint32_t)count);
  if (sequence) {
    for (uint64_t i = 1; i <= count; i++) {
      lua_rawgeti(L, idx, (lua_Integer)i);
      encode(L, e, lua_gettop(L));
      lua_pop(L, 1);
    }
  } else {
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      pss_charge(L, PSS_CHARGE_NEXT);
      encode(L, e, lua_gettop(L) - 1);
      encode(L, e, lua_gettop(L));
      lua_pop(L, 1);
    }
  }
  e->depth--;
}

static void encode(lua_State *L, encoder *e, int idx) {
  /* A table met twice is encoded twice, so a script can build a value whose encoding grows
   * exponentially with its size: the work is charged (to the script, or to a host read's
   * allowance), and the encoding capped. */
  pss_charge(L, 1);
  switch (lua_type(L, idx)) {
    case LUA_TNIL: put_u8(L, e, PSS_TAG_NIL); break;
    case LUA_TBOOLEAN: put_u8(L, e, lua_toboolean(L, idx) ? PSS_TAG_TRUE : PSS_TAG_FALSE); break;
    case LUA_TNUMBER:
      if (lua_isinteger(L, idx)) {
        int64_t v = (int64_t)lua_tointeger(L, idx);
        put_u8(L, e, PSS_TAG_INTEGER);
        put_bytes(L, e, &v, 8);
      } else {
        double v = (double)lua_tonumber(L, idx);
        put_u8(L, e, PSS_TAG_FLOAT);
        put_bytes(L, e, &v, 8);
      }
      break;
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, idx, &len);
      if (len > UINT32_MAX) too_large(L, e);
      pss_charge(L, len / 64);
      put_u8(L, e, PSS_TAG_STRING);
      put_u32(L, e, (uint32_t)len);
      put_bytes(L, e, s, len);
      break;
    }
    case LUA_TTABLE: encode_table(L, e, idx); break;
    case LUA_TUSERDATA: {
      pss_context *ctx = pss_ctx(L);
      if (ctx != NULL && ctx->ref_null != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_null);
        int is_null = lua_rawequal(L, -1, idx);
        lua_pop(L, 1);
        if (is_null) { put_u8(L, e, PSS_TAG_NULL); break; }
      }
      const pss_codec_host *calls = host();
      int32_t id = calls != NULL ? calls->object_id(L, idx) : -1;
      if (id >= 0) {
        put_u8(L, e, PSS_TAG_OBJECT);
        put_bytes(L, e, &id, 4);
        break;
      }
      put_u8(L, e, PSS_TAG_UNSUPPORTED);
      put_u8(L, e, PSS_LUA_USERDATA);
      break;
    }
    default:
      put_u8(L, e, PSS_TAG_UNSUPPORTED);
      put_u8(L, e, (unsigned char)lua_type(L, idx));
      break;
  }
}

static void encoder_init(lua_State *L, encoder *e, pss_buffer *out) {
  pss_context *ctx = pss_ctx(L);
  e->out = out;
  e->max_bytes = ctx != NULL ? ctx->limit : PSS_CODEC_MAX_BYTES;
  if (e->max_bytes < out->length) e->max_bytes = out->length;
  e->weight = 0;
  e->depth = 0;
}

void pss_encode_value(lua_State *L, int idx, pss_buffer *out) {
  encoder e;
  encoder_init(L, &e, out);
  encode(L, &e, lua_absindex(L, idx));
}

void pss_encode_arguments(lua_State *L, int first, int n, pss_buffer *out) {
  encoder e;
  encoder_init(L, &e, out);
  put_u32(L, &e, (uint32_t)n);
  for (int i = 0; i < n; i++) encode(L, &e, first + i);
}

/* ---- decoding ---------------------------------------------------------------------------- */

typedef struct decoder {
  const unsigned char *data;
  size_t len, pos;
  int depth;
  const char *ro_name;  /* inside a read-only value: tables become read-only views of this name */
  size_t ro_len;
} decoder;

static void need(lua_State *L, decoder *d, size_t n) {
  if (d->len - d->pos < n) luaL_error(L, "malformed host value");
}

static uint32_t get_u32(lua_State *L, decoder *d) {
  uint32_t v;
  need(L, d, 4);
  memcpy(&v, d->data + d->pos, 4);
  d->pos += 4;
  return v;
}

static void decode(lua_State *L, decoder *d);

static void decode_read_only(lua_State *L, decoder *d) {
  uint32_t name_len = get_u32(L, d);
  need(L, d, name_len);
  const char *saved_name = d->ro_name;
  size_t saved_len = d->ro_len;
  d->ro_name = (const char *)d->data + d->pos;
  d->ro_len = name_len;
  d->pos += name_len;
  need(L, d, 1);
  if (d->data[d->pos] != PSS_TAG_TABLE && d->data[d->pos] != PSS_TAG_ARRAY) luaL_error(L, "malformed host value");
  decode(L, d);
  d->ro_name = saved_name;
  d->ro_len = saved_len;
}

static void decode(lua_State *L, decoder *d) {
  need(L, d, 1);
  unsigned char tag = d->data[d->pos++];
  if (++d->depth > PSS_CODEC_MAX_DEPTH + 2) luaL_error(L, "host value too deep");
  luaL_checkstack(L, 4, "host value too deep");
  switch (tag) {
    case PSS_TAG_NIL: lua_pushnil(L); break;
    case PSS_TAG_TRUE: lua_pushboolean(L, 1); break;
    case PSS_TAG_FALSE: lua_pushboolean(L, 0); break;
    case PSS_TAG_NULL: {
      pss_context *ctx = pss_ctx(L);
      if (ctx == NULL || ctx->ref_null == LUA_NOREF) lua_pushnil(L);
      else lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_null);
      break;
    }
    case PSS_TAG_INTEGER: {
      int64_t v;
      need(L, d, 8);
      memcpy(&v, d->data + d->pos, 8);
      d->pos += 8;
      lua_pushinteger(L, (lua_Integer)v);
      break;
    }
    case PSS_TAG_FLOAT: {
      double v;
      need(L, d, 8);
      memcpy(&v, d->data + d->pos, 8);
      d->pos += 8;
      lua_pushnumber(L, (lua_Number)v);
      break;
    }
    case PSS_TAG_STRING: {
      uint32_t n = get_u32(L, d);
      need(L, d, n);
      lua_pushlstring(L, (const char *)d->data + d->pos, n);
      d->pos += n;
      break;
    }
    case PSS_TAG_TABLE: {
      uint32_t n = get_u32(L, d);
      lua_createtable(L, 0, (int)(n < 1u << 26 ? n : 0));
      for (uint32_t i = 0; i < n; i++) {
        decode(L, d);
        decode(L, d);
        if (lua_isnil(L, -2)) { lua_pop(L, 2); continue; }
        lua_rawset(L, -3);
      }
      if (d->ro_name) pss_proxy_make_view(L, d->ro_name, d->ro_len);
      break;
    }
    case PSS_TAG_ARRAY: {
      uint32_t n = get_u32(L, d);
      lua_createtable(L, (int)(n < 1u << 26 ? n : 0), 0);
      for (uint32_t i = 1; i <= n; i++) {
        decode(L, d);
        lua_rawseti(L, -2, (lua_Integer)i);
      }
      if (n == 0) pss_mark_array(L);
      if (d->ro_name) pss_proxy_make_view(L, d->ro_name, d->ro_len);
      break;
    }
    case PSS_TAG_FUNCTION: {
      int32_t fid;
      need(L, d, 4);
      memcpy(&fid, d->data + d->pos, 4);
      d->pos += 4;
      const pss_codec_host *calls = host();
      if (calls == NULL) luaL_error(L, "host functions are unavailable");
      calls->push_function(L, fid);
      break;
    }
    case PSS_TAG_CHUNK: {
      /* a chunk the host compiled and holds: its function, with the current environment as
       * its _ENV (as pss_run_chunk gives it) */
      int32_t ref;
      need(L, d, 4);
      memcpy(&ref, d->data + d->pos, 4);
      d->pos += 4;
      pss_context *ctx = pss_ctx(L);
      if (ctx == NULL || lua_rawgeti(L, LUA_REGISTRYINDEX, ref) != LUA_TFUNCTION)
        luaL_error(L, "malformed host value");
      if (ctx->ref_env != LUA_NOREF) {
        lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_env);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
      }
      break;
    }
    case PSS_TAG_READ_ONLY: decode_read_only(L, d); break;
    case PSS_TAG_LOCKED: {
      /* a copy the script may change, whose metatable it cannot see or replace */
      need(L, d, 1);
      if (d->data[d->pos] != PSS_TAG_TABLE && d->data[d->pos] != PSS_TAG_ARRAY) luaL_error(L, "malformed host value");
      decode(L, d);
      if (luaL_newmetatable(L, "pss.locked")) {
        lua_pushboolean(L, 0);
        lua_setfield(L, -2, "__metatable");
      }
      lua_setmetatable(L, -2);
      break;
    }
    default: luaL_error(L, "malformed host value");
  }
  d->depth--;
}

void pss_decode_value(lua_State *L, const unsigned char *data, size_t len, size_t *pos) {
  decoder d = {data, len, *pos, 0, NULL, 0};
  decode(L, &d);
  *pos = d.pos;
}

int pss_decode_values(lua_State *L, const unsigned char *data, size_t len) {
  decoder d = {data, len, 0, 0, NULL, 0};
  uint32_t n = get_u32(L, &d);
  if (n > 200) luaL_error(L, "too many host results");
  luaL_checkstack(L, (int)n + 4, "too many host results");
  for (uint32_t i = 0; i < n; i++) decode(L, &d);
  return (int)n;
}
