/* The entry points of pss.h, the engine's top: the protected ones run their Lua work inside
 * lua_pcall; the others hand the host's request to the layer that keeps it. */
#include <string.h>
#include "pss.h"
#include "pss_arm.h"
#include "pss_charge.h"
#include "pss_codec.h"
#include "pss_host.h"
#include "pss_kill.h"
#include "pss_lib_base.h"
#include "pss_proxy.h"
#include "pss_reader.h"
#include "pss_state.h"
#include "pss_string_metatable.h"
#include "pss_timer.h"

/* ---- states, limits and trips ------------------------------------------------------------ */

pss_context *pss_state_new(size_t memory_limit, void *host) { return pss_state_make(memory_limit, host); }

void pss_set_host(pss_context *ctx, void *host) { ctx->host = host; }

void pss_state_close(pss_context *ctx) { pss_state_free(ctx); }

void pss_set_dispatch(pss_dispatch_fn fn) { pss_host_set_dispatch(fn); }

void pss_set_field_dispatch(pss_field_fn fn) { pss_host_set_field_dispatch(fn); }

void pss_limits_arm(pss_context *ctx, int64_t cpu_budget_ns, int64_t deadline_ns,
                    size_t memory_limit) {
  pss_arm(ctx, cpu_budget_ns, deadline_ns, memory_limit);
}

void pss_limits_disarm(pss_context *ctx) { pss_disarm(ctx); }

void pss_cancel(pss_context *ctx) { pss_arm_cancel(ctx); }

int64_t pss_run_cpu_ns(pss_context *ctx) { return pss_arm_cpu_used_ns(ctx); }

void pss_trip_request(pss_context *ctx, pss_trip trip) { pss_trip_set(ctx, NULL, (int)trip); }

pss_trip pss_trip_of(pss_context *ctx) { return (pss_trip)atomic_load(&ctx->trip); }

pss_trip pss_limit_passed(pss_context *ctx) {
  int trip = atomic_load(&ctx->trip);
  if (trip == PSS_TRIP_NONE) trip = pss_limits_check(ctx, PSS_CLOCKS_NOW);
  return (pss_trip)trip;
}

const char *pss_trip_name(pss_trip trip) { return pss_limit_name((int)trip); }

size_t pss_memory_used(pss_context *ctx) { return ctx->used; }

size_t pss_memory_peak(pss_context *ctx) { return ctx->peak; }

void pss_memory_peak_reset(pss_context *ctx) { ctx->peak = ctx->used; }

size_t pss_memory_limit(pss_context *ctx) { return ctx->limit; }

const char *pss_limits_backend(void) { return pss_timer_backend(); }

/* Runs `f` with `args` as a light userdata under lua_pcall on the main thread, leaving the
 * stack as it was. Maps a failure to a status, and the error object to `err`. */
static int protected(pss_context *ctx, lua_CFunction f, void *args, pss_buffer *err) {
  lua_State *L = ctx->L;
  int top = lua_gettop(L);
  lua_pushcfunction(L, f);
  lua_pushlightuserdata(L, args);
  int status = lua_pcall(L, 1, 0, 0);
  int result = PSS_OK;
  if (status != LUA_OK) {
    if (status == LUA_ERRMEM || ctx->memory_refused) pss_trip_request(ctx, PSS_TRIP_MEMORY);
    if (atomic_load(&ctx->trip) != PSS_TRIP_NONE) {
      result = PSS_KILLED;
    } else {
      result = PSS_ERROR;
      if (err != NULL) {
        err->length = 0;
        if (lua_type(L, -1) == LUA_TSTRING) {
          size_t len;
          const char *msg = lua_tolstring(L, -1, &len);
          pss_buffer_append(err, msg, len);
        } else {
          const char *type = lua_typename(L, lua_type(L, -1));
          const char *prefix = "(error object is a ";
          pss_buffer_append(err, prefix, strlen(prefix));
          pss_buffer_append(err, type, strlen(type));
          pss_buffer_append(err, " value)", 7);
        }
      }
    }
  }
  lua_settop(L, top);
  return result;
}

/* ---- registration ------------------------------------------------------------------------ */

typedef struct register_args {
  const char *module, *name;
  int32_t fid;
  int kind;
  const unsigned char *value;
  size_t length;
  int what;  /* 0 function, 1 value, 2 json.null */
} register_args;

static int p_register(lua_State *L) {
  register_args *a = lua_touserdata(L, 1);
  pss_context *ctx = pss_ctx(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_template);
  if (a->module != NULL) {
    if (lua_getfield(L, -1, a->module) != LUA_TTABLE) {
      lua_pop(L, 1);
      lua_newtable(L);
      lua_pushvalue(L, -1);
      lua_setfield(L, -3, a->module);
      pss_name_module(L, a->module);
    }
  }
  if (a->what == 0) pss_push_trampoline(L, a->fid, a->kind);
  else if (a->what == 1) {
    size_t pos = 0;
    pss_decode_value(L, a->value, a->length, &pos);
  } else lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_null);
  lua_setfield(L, -2, a->name);
  return 0;
}

int pss_register(pss_context *ctx, const char *module, const char *name, int32_t fid,
                 int kind) {
  register_args a = {module, name, fid, kind, NULL, 0, 0};
  return protected(ctx, p_register, &a, NULL);
}

int pss_register_value(pss_context *ctx, const char *module, const char *name,
                       const unsigned char *value, size_t length) {
  register_args a = {module, name, 0, 0, value, length, 1};
  return protected(ctx, p_register, &a, NULL);
}

int pss_register_null(pss_context *ctx, const char *module, const char *name) {
  register_args a = {module, name, 0, 0, NULL, 0, 2};
  return protected(ctx, p_register, &a, NULL);
}

typedef struct made_args {
  const char *name;
  int chunk;
  int32_t fid;
} made_args;

static int p_register_made(lua_State *L) {
  made_args *a = lua_touserdata(L, 1);
  pss_context *ctx = pss_ctx(L);
  if (lua_rawgeti(L, LUA_REGISTRYINDEX, a->chunk) != LUA_TFUNCTION) luaL_error(L, "malformed host value");
  pss_push_environment(L);  /* the chunk's own, which no run shares */
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  pss_push_trampoline(L, a->fid, PSS_KIND_RAW);
  lua_pushcfunction(L, pss_lib_given);
  lua_call(L, 2, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_template);
  lua_insert(L, -2);
  lua_setfield(L, -2, a->name);
  return 0;
}

int pss_register_made(pss_context *ctx, const char *name, int chunk_ref, int32_t fid) {
  made_args a = {name, chunk_ref, fid};
  return protected(ctx, p_register_made, &a, NULL);
}

/* ---- compiling and running ---------------------------------------------------------------- */

typedef struct compile_args {
  const char *source, *chunkname;
  size_t length;
  int ref;
} compile_args;

static int p_compile(lua_State *L) {
  compile_args *a = lua_touserdata(L, 1);
  pss_reader r = {a->source, a->length, 0, 0, NULL, 0};
  if (lua_load(L, pss_read_piece, &r, a->chunkname, "t") != LUA_OK) {
    pss_check_trip(L);
    return lua_error(L);
  }
  a->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

int pss_compile(pss_context *ctx, const char *source, size_t length, const char *chunkname,
                int *ref_out, pss_buffer *err) {
  compile_args a = {source, chunkname, length, LUA_NOREF};
  int status = protected(ctx, p_compile, &a, err);
  *ref_out = a.ref;
  return status;
}

typedef struct ref_args {
  int ref, ref2, slot;
  const char *name;
  const int *refs;
  int n;
  int result;
  pss_buffer *out;
  const unsigned char *value;
  size_t length;
} ref_args;

static int p_env_new(lua_State *L) {
  ref_args *a = lua_touserdata(L, 1);
  pss_push_environment(L);
  a->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

int pss_env_new(pss_context *ctx, int *ref_out) {
  ref_args a = {0};
  a.ref = LUA_NOREF;
  int status = protected(ctx, p_env_new, &a, NULL);
  *ref_out = a.ref;
  if (status == PSS_OK) ctx->ref_env = a.ref;
  return status;
}

typedef struct chunk_args {
  int function, env;
  const char *names;  /* `count` names, each ending in a NUL */
  int count;
  int *types;
} chunk_args;

static int p_run_chunk(lua_State *L) {
  chunk_args *a = lua_touserdata(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->function);
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->env);
  pss_string_metatable_enter(L, -1);
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  lua_call(L, 0, 0);
  /* what the chunk defined, read raw in the same protected call */
  int has_env = lua_rawgeti(L, LUA_REGISTRYINDEX, a->env) == LUA_TTABLE;
  const char *name = a->names;
  for (int i = 0; i < a->count; i++) {
    if (has_env) {
      lua_pushstring(L, name);
      a->types[i] = lua_rawget(L, -2);
      lua_pop(L, 1);
    } else {
      a->types[i] = LUA_TNIL;
    }
    name += strlen(name) + 1;
  }
  return 0;
}

int pss_run_chunk(pss_context *ctx, int function_ref, int env_ref, const char *names, int count, int *types,
                  pss_buffer *err) {
  chunk_args a = {function_ref, env_ref, names, count, types};
  for (int i = 0; i < count; i++) types[i] = -1;
  ctx->ref_env = env_ref;
  return protected(ctx, p_run_chunk, &a, err);
}

static int p_call_global(lua_State *L) {
  ref_args *a = lua_touserdata(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->ref);
  pss_string_metatable_enter(L, -1);
  lua_pushstring(L, a->name);
  if (lua_rawget(L, -2) != LUA_TFUNCTION) {
    a->result = PSS_MISSING;
    return 0;
  }
  luaL_checkstack(L, a->n + 2, "too many arguments");
  for (int i = 0; i < a->n; i++) lua_rawgeti(L, LUA_REGISTRYINDEX, a->refs[i]);
  a->result = PSS_OK;
  lua_call(L, a->n, 0);
  return 0;
}

int pss_call_global(pss_context *ctx, int env_ref, const char *name, const int *arg_refs,
                    int nargs, pss_buffer *err) {
  ref_args a = {0};
  a.ref = env_ref;
  a.name = name;
  a.refs = arg_refs;
  a.n = nargs;
  a.result = PSS_OK;
  ctx->ref_env = env_ref;
  int status = protected(ctx, p_call_global, &a, err);
  if (status == PSS_OK && a.result == PSS_MISSING) return PSS_MISSING;
  return status;
}

/* ---- values and objects ------------------------------------------------------------------ */

typedef struct value_args {
  const unsigned char *value;
  size_t length;
  int ref;
} value_args;

static int p_value_new(lua_State *L) {
  value_args *a = lua_touserdata(L, 1);
  size_t pos = 0;
  pss_decode_value(L, a->value, a->length, &pos);
  a->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

int pss_value_new(pss_context *ctx, const unsigned char *value, size_t length, int *ref_out) {
  value_args a = {value, length, LUA_NOREF};
  int status = protected(ctx, p_value_new, &a, NULL);
  *ref_out = a.ref;
  return status;
}

typedef struct lazy_view_args {
  const char *name;
  int32_t loader;
  int ref;
} lazy_view_args;

static int p_lazy_view_new(lua_State *L) {
  lazy_view_args *a = lua_touserdata(L, 1);
  pss_proxy_push_lazy_view(L, a->name, strlen(a->name), a->loader);
  a->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

int pss_lazy_view_new(pss_context *ctx, const char *name, int32_t loader, int *ref_out) {
  lazy_view_args a = {name, loader, LUA_NOREF};
  int status = protected(ctx, p_lazy_view_new, &a, NULL);
  *ref_out = a.ref;
  return status;
}

static int p_value_read(lua_State *L) {
  ref_args *a = lua_touserdata(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->ref);
  a->result = 1;
  if (a->slot > 0 && !pss_object_push_slot(L, a->slot, a->n)) {
    a->result = 0;  /* untouched, or unchanged since the host stored it */
    return 0;
  }
  a->out->length = 0;
  pss_encode_value(L, -1, a->out);
  return 0;
}

/* Runs p_value_read with ctx->reading set (see pss_call_without_arguments) and the read's
 * allowance of CPU and wall time (pss_read_begin: its walks are charged); the memory limit is
 * as it was after it, whatever happened. */
static int read_value(pss_context *ctx, ref_args *a, pss_buffer *err) {
  int reading = ctx->reading;
  size_t limit = ctx->limit;
  if (!reading) pss_read_begin(ctx);
  ctx->reading = 1;
  int status = protected(ctx, p_value_read, a, err);
  ctx->reading = reading;
  if (!reading) pss_read_end(ctx);
  ctx->limit = limit;
  return status;
}

int pss_value_read(pss_context *ctx, int ref, pss_buffer *out, pss_buffer *err) {
  ref_args a = {0};
  a.ref = ref;
  a.out = out;
  return read_value(ctx, &a, err);
}

int pss_object_read_slot(pss_context *ctx, int object_ref, int slot, pss_buffer *out,
                         pss_buffer *err) {
  ref_args a = {0};
  a.ref = object_ref;
  a.slot = slot;
  a.out = out;
  return read_value(ctx, &a, err);
}

int pss_object_read_touched_slot(pss_context *ctx, int object_ref, int slot, pss_buffer *out,
                                 pss_buffer *err, int *touched_out) {
  ref_args a = {0};
  a.ref = object_ref;
  a.slot = slot;
  a.n = 1;
  a.out = out;
  int status = read_value(ctx, &a, err);
  *touched_out = a.result;
  return status;
}

typedef struct class_args {
  const char *name;
  int32_t index_fid, newindex_fid;
  const char *const *slots;
  int nslots;
  int32_t text_fid;
  const char *const *texts;
  int ntext;
  int class_id;
  int32_t object_id;
  int ref;
} class_args;

static int p_class_new(lua_State *L) {
  class_args *a = lua_touserdata(L, 1);
  lua_settop(L, 0);
  lua_pushstring(L, a->name);
  lua_pushinteger(L, a->index_fid);
  lua_pushinteger(L, a->newindex_fid);
  lua_createtable(L, 0, a->nslots);
  for (int i = 0; i < a->nslots; i++) {
    lua_pushinteger(L, i + 1);
    lua_setfield(L, -2, a->slots[i]);
  }
  lua_pushinteger(L, a->nslots);
  lua_pushinteger(L, a->text_fid);
  lua_createtable(L, 0, a->ntext);
  for (int i = 0; i < a->ntext; i++) {
    lua_pushinteger(L, i);
    lua_setfield(L, -2, a->texts[i]);
  }
  pss_host_class_new(L);
  a->class_id = (int)lua_tointeger(L, -1);
  return 0;
}

int pss_class_new(pss_context *ctx, const char *name, int32_t index_fid, int32_t newindex_fid,
                  const char *const *slot_names, int nslots, int32_t text_fid,
                  const char *const *text_names, int ntext, int *class_out) {
  class_args a = {name, index_fid, newindex_fid, slot_names, nslots, text_fid, text_names, ntext, 0, 0, LUA_NOREF};
  int status = protected(ctx, p_class_new, &a, NULL);
  *class_out = a.class_id;
  return status;
}

static int p_object_new(lua_State *L) {
  class_args *a = lua_touserdata(L, 1);
  lua_settop(L, 0);
  lua_pushinteger(L, a->class_id);
  lua_pushinteger(L, a->object_id);
  pss_host_object_new(L);
  a->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

int pss_object_new(pss_context *ctx, int class_id, int32_t object_id, int *ref_out) {
  class_args a = {NULL, 0, 0, NULL, 0, 0, NULL, 0, class_id, object_id, LUA_NOREF};
  int status = protected(ctx, p_object_new, &a, NULL);
  *ref_out = a.ref;
  return status;
}

static int p_object_set_slot(lua_State *L) {
  ref_args *a = lua_touserdata(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->ref);
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->ref2);
  /* its encoding is taken as the baseline when a script first reads the slot */
  lua_pushboolean(L, 1);
  pss_object_store_slot(L, a->slot);
  return 0;
}

static int p_object_set_slot_encoded(lua_State *L) {
  ref_args *a = lua_touserdata(L, 1);
  lua_rawgeti(L, LUA_REGISTRYINDEX, a->ref);
  size_t pos = 0;
  pss_decode_value(L, a->value, a->length, &pos);
  if (pos != a->length) return luaL_error(L, "malformed host value");
  /* the encoding is the baseline: a read of the slot tells an unchanged value by it */
  lua_pushlstring(L, (const char *)a->value, a->length);
  pss_object_store_slot(L, a->slot);
  return 0;
}

int pss_object_set_slot_encoded(pss_context *ctx, int object_ref, int slot,
                                const unsigned char *value, size_t length) {
  ref_args a = {0};
  a.ref = object_ref;
  a.slot = slot;
  a.value = value;
  a.length = length;
  return protected(ctx, p_object_set_slot_encoded, &a, NULL);
}

int pss_object_set_slot(pss_context *ctx, int object_ref, int slot, int value_ref) {
  ref_args a = {0};
  a.ref = object_ref;
  a.ref2 = value_ref;
  a.slot = slot;
  return protected(ctx, p_object_set_slot, &a, NULL);
}

static int p_unref(lua_State *L) {
  ref_args *a = lua_touserdata(L, 1);
  luaL_unref(L, LUA_REGISTRYINDEX, a->ref);
  return 0;
}

void pss_unref(pss_context *ctx, int ref) {
  if (ref == LUA_NOREF || ref == LUA_REFNIL) return;
  ref_args a = {0};
  a.ref = ref;
  protected(ctx, p_unref, &a, NULL);
  if (ctx->ref_env == ref) ctx->ref_env = LUA_NOREF;
}

static int p_collect(lua_State *L) {
  (void)lua_touserdata(L, 1);
  lua_gc(L, LUA_GCCOLLECT);
  return 0;
}

void pss_collect(pss_context *ctx) { protected(ctx, p_collect, NULL, NULL); }
