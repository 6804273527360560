/* Telling whether a Lua value still is what an encoding of it says, without encoding it: how a
 * host value the script only read is told apart from one it changed (see pss_host_read_slot). It
 * reads values as the encoder does (raw access, views through to what they show). */
#include <string.h>
#include "pss_array_mark.h"
#include "pss_charge.h"
#include "pss_codec_compare.h"
#include "pss_proxy.h"

typedef struct cursor {
  const unsigned char *data;
  size_t len, pos;
} cursor;

static int take(cursor *c, void *out, size_t n) {
  if (c->len - c->pos < n) return 0;
  memcpy(out, c->data + c->pos, n);
  c->pos += n;
  return 1;
}

static int same(lua_State *L, int idx, cursor *c);

/* The table at `idx` against a table (or list, `list`) of the encoding whose count is next. */
static int same_table(lua_State *L, int idx, cursor *c, int list) {
  if (lua_type(L, idx) != LUA_TTABLE) return 0;
  luaL_checkstack(L, 6, "value too deep to compare");
  /* as the encoder reads them: a read-only view as the table it shows, a lazy table filled */
  if (pss_proxy_fill(L, idx, PSS_PROXY_SHOW)) {
    int ok = same_table(L, lua_gettop(L), c, list);
    lua_pop(L, 1);
    return ok;
  }
  uint32_t n;
  /* no depth limit of its own: each table takes bytes of the baseline, whose depth is what
   * the state held when the host stored it */
  if (!take(c, &n, 4)) return 0;
  /* an empty table is an array only when marked one, as the encoder tells them apart */
  if (n == 0 && pss_marked_array(L, idx) != list) return 0;
  if (list) {
    for (uint32_t i = 1; i <= n; i++) {
      pss_charge(L, 1);
      lua_rawgeti(L, idx, (lua_Integer)i);
      int ok = same(L, lua_gettop(L), c);
      lua_pop(L, 1);
      if (!ok) return 0;
    }
  } else {
    for (uint32_t i = 0; i < n; i++) {
      unsigned char tag;
      uint32_t length;
      if (!take(c, &tag, 1) || tag != PSS_TAG_STRING || !take(c, &length, 4) || c->len - c->pos < length)
        return 0;
      pss_charge(L, 1 + length / 64);
      lua_pushlstring(L, (const char *)c->data + c->pos, length);
      c->pos += length;
      lua_rawget(L, idx);
      int ok = same(L, lua_gettop(L), c);
      lua_pop(L, 1);
      if (!ok) return 0;
    }
  }
  /* nothing besides: as many entries as the encoding has (each lua_next charged as a walk
   * along a chain, as the encoder charges it) */
  uint32_t count = 0;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    pss_charge(L, PSS_CHARGE_NEXT);
    lua_pop(L, 1);
    if (++count > n) {
      lua_pop(L, 1);
      return 0;
    }
  }
  return count == n;
}

static int same(lua_State *L, int idx, cursor *c) {
  unsigned char tag;
  if (!take(c, &tag, 1)) return 0;
  switch (tag) {
    case PSS_TAG_NIL: return lua_isnil(L, idx);
    case PSS_TAG_TRUE: return lua_type(L, idx) == LUA_TBOOLEAN && lua_toboolean(L, idx);
    case PSS_TAG_FALSE: return lua_type(L, idx) == LUA_TBOOLEAN && !lua_toboolean(L, idx);
    case PSS_TAG_NULL: {
      pss_context *ctx = pss_ctx(L);
      if (ctx == NULL || ctx->ref_null == LUA_NOREF || lua_type(L, idx) != LUA_TUSERDATA) return 0;
      lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_null);
      int is_null = lua_rawequal(L, -1, idx);
      lua_pop(L, 1);
      return is_null;
    }
    case PSS_TAG_INTEGER: {
      int64_t v;
      return take(c, &v, 8) && lua_isinteger(L, idx) && (int64_t)lua_tointeger(L, idx) == v;
    }
    case PSS_TAG_FLOAT: {
      double v, w;
      if (!take(c, &v, 8) || lua_type(L, idx) != LUA_TNUMBER || lua_isinteger(L, idx)) return 0;
      w = (double)lua_tonumber(L, idx);
      return memcmp(&v, &w, sizeof v) == 0;
    }
    case PSS_TAG_STRING: {
      uint32_t length;
      size_t have;
      if (!take(c, &length, 4) || c->len - c->pos < length || lua_type(L, idx) != LUA_TSTRING) return 0;
      const char *s = lua_tolstring(L, idx, &have);
      pss_charge(L, length / 64);
      int ok = have == length && memcmp(s, c->data + c->pos, length) == 0;
      c->pos += length;
      return ok;
    }
    case PSS_TAG_TABLE: return same_table(L, idx, c, 0);
    case PSS_TAG_ARRAY: return same_table(L, idx, c, 1);
    default: return 0;  /* functions, objects, views: not compared */
  }
}

int pss_same_as_encoded(lua_State *L, int idx, const unsigned char *data, size_t len) {
  cursor c = {data, len, 0};
  return same(L, lua_absindex(L, idx), &c) && c.pos == len;
}
