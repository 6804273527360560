/* Host functions and host objects: trampolines that call the embedding host's dispatch and
 * raise its errors only after it has returned. The codec decodes host functions and encodes
 * host objects, and lazy views are made, through what pss_host_open registers. */
#include <stdint.h>
#include <string.h>
#include "pss_charge.h"
#include "pss_codec.h"
#include "pss_codec_compare.h"
#include "pss_host.h"
#include "pss_kill.h"
#include "pss_proxy.h"

static pss_dispatch_fn dispatch_fn = NULL;
static pss_field_fn field_fn = NULL;

void pss_host_set_dispatch(pss_dispatch_fn fn) { dispatch_fn = fn; }

void pss_host_set_field_dispatch(pss_field_fn fn) { field_fn = fn; }

/* Bytes a scratch buffer keeps between host calls. One that grew past this for a big call is
 * let go after it, so that a state does not hold megabytes outside its memory limit. */
#define SCRATCH_KEEP ((size_t)64 * 1024)

static void trim(pss_buffer *b) {
  if (b->capacity > SCRATCH_KEEP) pss_buffer_free(b);
}

/* After a host call: the kill when a limit tripped meanwhile, and a look at the clocks, since
 * the host's work can be long for few instructions (a hook of the app's, say). */
static void after_host(lua_State *L) {
  pss_check_trip(L);
  pss_charge(L, PSS_CHARGE_INTERVAL);
}

/* Calls the host's dispatch with encoded arguments and pushes what it returned; raises the
 * host's error, or the kill. The results buffer is free here: it is only in use between the
 * dispatch and the decoding below. */
static int answer_host(lua_State *L, pss_context *ctx, int r);

static int call_host(lua_State *L, pss_context *ctx, int32_t fid, int32_t object_id,
                     const unsigned char *args, size_t length, int trim_args) {
  ctx->results.length = 0;
  ctx->dispatching = 1;
  int r = dispatch_fn(ctx->host, fid, object_id, args, length, &ctx->results);
  ctx->dispatching = 0;
  if (trim_args) trim(&ctx->args);
  return answer_host(L, ctx, r);
}

/* What the host answered (in the results buffer): its values pushed, or its error raised, or
 * the kill. */
static int answer_host(lua_State *L, pss_context *ctx, int r) {
  if (r == PSS_HOST_KILL) {
    trim(&ctx->results);
    pss_trip_set(ctx, L, PSS_TRIP_TIME);  /* unless the host recorded another */
    return pss_raise_kill(L);
  }
  if (r == PSS_HOST_ERROR) {
    luaL_where(L, 1);
    lua_pushlstring(L, (const char *)ctx->results.data, ctx->results.length);
    trim(&ctx->results);
    after_host(L);
    lua_concat(L, 2);
    return lua_error(L);
  }
  int count = ctx->results.length ? pss_decode_values(L, ctx->results.data, ctx->results.length) : 0;
  trim(&ctx->results);
  after_host(L);
  return count;
}

/* Checks that a host function may be called now; returns the context. */
static pss_context *host_context(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  pss_check_tripped(L);
  if (ctx == NULL || dispatch_fn == NULL) luaL_error(L, "host functions are unavailable");
  /* The scratch buffers belong to the call in progress. */
  if (ctx->dispatching) luaL_error(L, "a host function cannot run Lua that calls the host");
  return ctx;
}

int pss_dispatch_call(lua_State *L, int32_t fid, int32_t object_id, int first) {
  pss_context *ctx = host_context(L);
  int n = lua_gettop(L) - first + 1;
  if (n < 0) n = 0;
  ctx->args.length = 0;
  pss_encode_arguments(L, first, n, &ctx->args);
  return call_host(L, ctx, fid, object_id, ctx->args.data, ctx->args.length, 1);
}

/* A host call made while the host reads a value out of the state: the script is over or
 * stopped, so a limit it hit does not stop this call (the userInfo of a script stopped by a
 * limit is still the best attempt, even when it holds a lazy view it never looked into), and
 * what the host refuses is a plain error. */
static int call_host_reading(lua_State *L, pss_context *ctx, int32_t fid,
                             const unsigned char *args, size_t length) {
  if (dispatch_fn == NULL) luaL_error(L, "host functions are unavailable");
  ctx->results.length = 0;
  ctx->dispatching = 1;
  int r = dispatch_fn(ctx->host, fid, -1, args, length, &ctx->results);
  ctx->dispatching = 0;
  if (r != PSS_HOST_RETURN) {
    if (r == PSS_HOST_ERROR)
      lua_pushlstring(L, (const char *)ctx->results.data, ctx->results.length);
    else
      lua_pushliteral(L, "the host made no value: the request is over");
    trim(&ctx->results);
    return lua_error(L);
  }
  int count = ctx->results.length ? pss_decode_values(L, ctx->results.data, ctx->results.length) : 0;
  trim(&ctx->results);
  return count;
}

int pss_call_without_arguments(lua_State *L, int32_t fid) {
  static const unsigned char none[4] = {0, 0, 0, 0};  /* a u32 count of 0 */
  pss_context *ctx = pss_ctx(L);
  if (ctx != NULL && ctx->reading && !ctx->dispatching)
    return call_host_reading(L, ctx, fid, none, sizeof none);
  return call_host(L, host_context(L), fid, -1, none, sizeof none, 0);
}

/* upvalues: function id, argument kind, [string.format] */
static int trampoline(lua_State *L) {
  int32_t fid = (int32_t)lua_tointeger(L, lua_upvalueindex(1));
  int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
  if (kind == PSS_KIND_FORMAT) {
    lua_pushvalue(L, lua_upvalueindex(3));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
  } else if (kind == PSS_KIND_TOSTRING) {
    int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; i++) {
      if (i > 1) luaL_addchar(&b, '\t');
      luaL_tolstring(L, i, NULL);
      luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    lua_replace(L, 1);
    lua_settop(L, 1);
  }
  return pss_dispatch_call(L, fid, -1, 1);
}

static const char *const FUNCS_KEY = "pss.functions";
/* registry[FORMAT_KEY]: string.format as scripts have it (charged, and named in errors), for
 * the host functions of PSS_KIND_FORMAT */
static const char *const FORMAT_KEY = "pss.format";

void pss_push_trampoline(lua_State *L, int32_t fid, int kind) {
  lua_pushinteger(L, fid);
  lua_pushinteger(L, kind);
  if (kind == PSS_KIND_FORMAT) {
    lua_getfield(L, LUA_REGISTRYINDEX, FORMAT_KEY);
    lua_pushcclosure(L, trampoline, 3);
  } else {
    lua_pushcclosure(L, trampoline, 2);
  }
}

/* The codec's callback for a function value: the cached closure for host function `fid`. */
static void push_host_function(lua_State *L, int32_t fid) {
  lua_getfield(L, LUA_REGISTRYINDEX, FUNCS_KEY);
  if (lua_rawgeti(L, -1, fid) == LUA_TNIL) {
    lua_pop(L, 1);
    pss_push_trampoline(L, fid, PSS_KIND_RAW);
    lua_pushvalue(L, -1);
    lua_rawseti(L, -3, fid);
  }
  lua_remove(L, -2);
}

/* ---- host objects -----------------------------------------------------------------------
 * A host object is a full userdata holding its id and a tag, with one user value per slot.
 * Its class's metatable sends reads and writes of keys to the host; keys named as slots hold
 * Lua values (a live table) that the host reads back when it wants. */

/* A host object's user values: slot i's value at SLOT_VALUE(i), and at SLOT_BASELINE(i)
 * what a read compares with: true after the host stored a value, the encoding of that value
 * (a string) from when a script first read it, nil once a script assigned the slot or a read
 * found it changed. A value that still encodes as its baseline is unchanged. */
#define SLOT_VALUE(slot) (2 * (slot) - 1)
#define SLOT_BASELINE(slot) (2 * (slot))

/* A host object's bytes: its id, the tag "pssO", then one bit per slot that a script has
 * read or written (the host's own stores leave it clear). */
#define OBJECT_TAG_OFFSET 4
#define OBJECT_TOUCHED_OFFSET 8
#define OBJECT_SIZE 12

/* The codec's callback for a userdata: the object id of a host object, or -1. */
static int32_t host_object_id(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || lua_rawlen(L, idx) != OBJECT_SIZE) return -1;
  const unsigned char *ud = lua_touserdata(L, idx);
  if (memcmp(ud + OBJECT_TAG_OFFSET, "pssO", 4) != 0) return -1;
  int32_t id;
  memcpy(&id, ud, sizeof id);
  return id;
}

/* Marks slot `slot` of the object at 1 as seen by the script; returns whether it was not yet. */
static int mark_touched(lua_State *L, int slot) {
  unsigned char *ud = lua_touserdata(L, 1);
  uint32_t touched, bit = (uint32_t)1 << (slot - 1);
  memcpy(&touched, ud + OBJECT_TOUCHED_OFFSET, sizeof touched);
  if (touched & bit) return 0;
  touched |= bit;
  memcpy(ud + OBJECT_TOUCHED_OFFSET, &touched, sizeof touched);
  return 1;
}

/* Before the script first sees the host's value in `slot` of the object at 1 (whose value is
 * on top): its encoding as the baseline, so that a read of a value the script did not change
 * can tell (see SLOT_BASELINE). Only a value the host stored has a baseline to take. The
 * argument buffer is free here, and stays free while a lazy view met in the value is made
 * (pss_call_without_arguments uses the results buffer). */
static void take_baseline(lua_State *L, int slot) {
  pss_context *ctx = pss_ctx(L);
  if (lua_getiuservalue(L, 1, SLOT_BASELINE(slot)) != LUA_TBOOLEAN) {
    lua_pop(L, 1);
    return;
  }
  lua_pop(L, 1);
  if (ctx == NULL || ctx->dispatching) {
    lua_pushnil(L);  /* no scratch buffer now: every read copies the value */
  } else {
    ctx->args.length = 0;
    pss_encode_value(L, -1, &ctx->args);
    lua_pushlstring(L, (const char *)ctx->args.data, ctx->args.length);
    ctx->args.length = 0;
    trim(&ctx->args);
  }
  lua_setiuservalue(L, 1, SLOT_BASELINE(slot));
}

static int32_t object_id(lua_State *L) {
  int32_t id;
  memcpy(&id, lua_touserdata(L, 1), sizeof id);
  return id;
}

/* The slot index of the key at 2 (upvalue 2 maps slot names to indices), or 0. */
static int slot_of(lua_State *L) {
  if (lua_type(L, 2) != LUA_TSTRING) return 0;
  lua_pushvalue(L, 2);
  int slot = lua_rawget(L, lua_upvalueindex(2)) == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : 0;
  lua_pop(L, 1);
  return slot;
}

/* The 0-based text field index of the key at 2 (upvalue 4 maps text field names to
 * indices), or -1. */
static int text_field_of(lua_State *L) {
  if (lua_type(L, 2) != LUA_TSTRING) return -1;
  lua_pushvalue(L, 2);
  int field = lua_rawget(L, lua_upvalueindex(4)) == LUA_TNUMBER ? (int)lua_tointeger(L, -1) : -1;
  lua_pop(L, 1);
  return field;
}

/* Reads (text NULL) or writes text field `field` of the object at 1 through the field
 * dispatch, as a host call; returns the number of values pushed. */
static int call_text_field(lua_State *L, int field, const unsigned char *text, size_t length) {
  pss_context *ctx = host_context(L);
  if (field_fn == NULL) luaL_error(L, "host functions are unavailable");
  int32_t fid = (int32_t)lua_tointeger(L, lua_upvalueindex(3));
  ctx->results.length = 0;
  ctx->dispatching = 1;
  int r = field_fn(ctx->host, fid, object_id(L), field, text, length, &ctx->results);
  ctx->dispatching = 0;
  return answer_host(L, ctx, r);
}

/* upvalues: index function id, slot names, text field function id, text field names */
static int object_index(lua_State *L) {
  pss_check_tripped(L);
  int slot = slot_of(L);
  if (slot) {
    int first = mark_touched(L, slot);
    lua_getiuservalue(L, 1, SLOT_VALUE(slot));
    if (first) take_baseline(L, slot);
    return 1;
  }
  int field = text_field_of(L);
  if (field >= 0) return call_text_field(L, field, NULL, 0);
  lua_settop(L, 2);
  return pss_dispatch_call(L, (int32_t)lua_tointeger(L, lua_upvalueindex(1)), object_id(L), 2);
}

/* upvalues: newindex function id, slot names, text field function id, text field names */
static int object_newindex(lua_State *L) {
  pss_check_tripped(L);
  lua_settop(L, 3);
  if (lua_type(L, 3) == LUA_TSTRING) {
    int field = text_field_of(L);
    if (field >= 0) {
      size_t length;
      const char *text = lua_tolstring(L, 3, &length);
      pss_charge(L, length / 64);  /* what encoding it as an argument charges */
      call_text_field(L, field, (const unsigned char *)text, length);
      return 0;
    }
  }
  int slot = slot_of(L);
  int32_t fid = (int32_t)lua_tointeger(L, lua_upvalueindex(1));
  pss_dispatch_call(L, fid, object_id(L), 2);
  if (slot) {
    mark_touched(L, slot);
    lua_pushvalue(L, 3);
    lua_setiuservalue(L, 1, SLOT_VALUE(slot));
    lua_pushnil(L);
    lua_setiuservalue(L, 1, SLOT_BASELINE(slot));
  }
  return 0;
}

static const char *const CLASSES_KEY = "pss.classes";

/* Pushes `accessor` closed over the function id at `fid` and the class's slot names, text fid
 * and text field names (the stack of pss_host_class_new). */
static void push_accessor(lua_State *L, lua_CFunction accessor, int fid) {
  lua_pushvalue(L, fid);
  lua_pushvalue(L, 4);
  lua_pushvalue(L, 6);
  lua_pushvalue(L, 7);
  lua_pushcclosure(L, accessor, 4);
}

/* Stack: name, index fid, newindex fid, slot-name table, slot count, text fid, text-field
 * table. Pushes the class id. */
int pss_host_class_new(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, CLASSES_KEY);
  lua_Integer id = (lua_Integer)lua_rawlen(L, -1) + 1;
  lua_createtable(L, 0, 5);
  push_accessor(L, object_index, 2);
  lua_setfield(L, -2, "__index");
  push_accessor(L, object_newindex, 3);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, 1);
  lua_setfield(L, -2, "__name");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_pushvalue(L, 5);
  lua_setfield(L, -2, "pss.slots");
  lua_rawseti(L, -2, id);
  lua_pop(L, 1);
  lua_pushinteger(L, id);
  return 1;
}

/* Stack: class id, object id. Pushes the new object. */
int pss_host_object_new(lua_State *L) {
  lua_Integer class_id = lua_tointeger(L, 1);
  int32_t id = (int32_t)lua_tointeger(L, 2);
  lua_getfield(L, LUA_REGISTRYINDEX, CLASSES_KEY);
  if (lua_rawgeti(L, -1, class_id) != LUA_TTABLE) return luaL_error(L, "unknown host class");
  lua_getfield(L, -1, "pss.slots");
  int slots = (int)lua_tointeger(L, -1);
  lua_pop(L, 1);
  unsigned char *ud = lua_newuserdatauv(L, OBJECT_SIZE, 2 * slots);
  memcpy(ud, &id, sizeof id);
  memcpy(ud + OBJECT_TAG_OFFSET, "pssO", 4);
  memset(ud + OBJECT_TOUCHED_OFFSET, 0, OBJECT_SIZE - OBJECT_TOUCHED_OFFSET);
  lua_pushvalue(L, -2);
  lua_setmetatable(L, -2);
  return 1;
}

/* A slot read for the host (ctx->reading). Stack: object, baseline, value. */
static int slot_changed(lua_State *L, int slot) {
  if (lua_type(L, -2) != LUA_TSTRING) return 1;
  size_t len;
  const unsigned char *baseline = (const unsigned char *)lua_tolstring(L, -2, &len);
  /* The compare makes the baseline's keys as Lua strings (and a view met in the value, as the
   * encoder would): the host's work, bounded by what the host stored, which a script that ran
   * out of memory may have left no room for (the read restores the limit after it). */
  pss_context *ctx = pss_ctx(L);
  size_t limit = ctx->limit;
  ctx->limit = SIZE_MAX;
  int same = pss_same_as_encoded(L, -1, baseline, len);
  ctx->limit = limit;
  if (same) return 0;  /* touched, but unchanged since the host stored it */
  /* changed: the host reads it, and from now on every time (it may take or refuse it) */
  lua_pushnil(L);
  lua_setiuservalue(L, -4, SLOT_BASELINE(slot));
  return 1;
}

int pss_object_push_slot(lua_State *L, int slot, int only_changed) {
  if (lua_type(L, -1) != LUA_TUSERDATA || lua_rawlen(L, -1) != OBJECT_SIZE)
    return luaL_error(L, "not a host object");
  if (only_changed) { /* only when the script has read or written the slot */
    uint32_t touched;
    memcpy(&touched, (unsigned char *)lua_touserdata(L, -1) + OBJECT_TOUCHED_OFFSET, sizeof touched);
    if (!(touched & ((uint32_t)1 << (slot - 1)))) return 0;
  }
  int object = lua_gettop(L);
  lua_getiuservalue(L, object, SLOT_BASELINE(slot));
  lua_getiuservalue(L, object, SLOT_VALUE(slot));
  if (only_changed && !slot_changed(L, slot)) {
    lua_settop(L, object);
    return 0;
  }
  lua_replace(L, object);
  lua_settop(L, object);
  return 1;
}

void pss_object_store_slot(lua_State *L, int slot) {
  if (lua_type(L, -3) != LUA_TUSERDATA) luaL_error(L, "not a host object");
  lua_setiuservalue(L, -3, SLOT_BASELINE(slot));
  lua_setiuservalue(L, -2, SLOT_VALUE(slot));
}

void pss_host_open(lua_State *L, int format) {
  static const pss_codec_host codec_host = {push_host_function, host_object_id};
  pss_codec_set_host(&codec_host);
  pss_proxy_set_loader(pss_call_without_arguments);
  lua_pushvalue(L, format);
  lua_setfield(L, LUA_REGISTRYINDEX, FORMAT_KEY);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, FUNCS_KEY);
  lua_newtable(L);
  lua_setfield(L, LUA_REGISTRYINDEX, CLASSES_KEY);
}
