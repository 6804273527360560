/* Guarded base functions: pcall and xpcall that cannot catch the kill (xpcall runs its
 * message handler after unwinding, under the hook), setmetatable that refuses __gc, and load
 * that compiles text only, in the script's environment, charging the source it parses. */
#include <string.h>
#include "pss_lib.h"

static int finish_pcall(lua_State *L, int status, lua_KContext extra) {
  if (status != LUA_OK && status != LUA_YIELD) {
    pss_check_trip(L);
    lua_pushboolean(L, 0);
    lua_pushvalue(L, -2);
    return 2;
  }
  return lua_gettop(L) - (int)extra;
}

int pss_lib_pcall(lua_State *L) {
  luaL_checkany(L, 1);
  lua_pushboolean(L, 1);
  lua_insert(L, 1);
  int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
  return finish_pcall(L, status, 0);
}

/* Times the message handler is handed its own error before xpcall gives up, about as many
 * as stock Lua's C stack allows. */
#define HANDLER_RETRIES 200

/* Whether the error object on top is a stack overflow ("stack overflow", "C stack overflow"):
 * stock Lua gives up on a handler that overflows at once. */
static int is_overflow(lua_State *L) {
  size_t len;
  const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
  static const char tail[] = "stack overflow";
  return msg != NULL && len >= sizeof tail - 1 && memcmp(msg + len - (sizeof tail - 1), tail,
                                                         sizeof tail - 1) == 0;
}

/* Stack at the continuation: handler, true, function results... (or the error object). The
 * handler runs now that the stack has unwound: stock Lua runs it before, with hooks off, where
 * no limit could stop it. As in stock Lua, an error in the handler is handed to the handler
 * again, and one that keeps failing ends as "error in error handling". */
static int finish_xpcall(lua_State *L, int status, lua_KContext extra) {
  (void)extra;
  if (status == LUA_OK || status == LUA_YIELD) return lua_gettop(L) - 1;
  pss_check_trip(L);
  for (int tries = 0;; tries++) {
    lua_pushvalue(L, 1);
    lua_insert(L, -2);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK) break;
    pss_check_trip(L);
    if (tries + 1 == HANDLER_RETRIES || is_overflow(L)) {
      lua_pop(L, 1);
      lua_pushliteral(L, "error in error handling");
      break;
    }
  }
  lua_pushboolean(L, 0);
  lua_insert(L, -2);
  return 2;
}

int pss_lib_xpcall(lua_State *L) {
  int n = lua_gettop(L);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_pushboolean(L, 1);
  lua_pushvalue(L, 1);
  lua_rotate(L, 3, 2);  /* handler, true, function, args... */
  lua_remove(L, 1);     /* drop the original function slot: f was copied */
  /* stack now: handler, true, f, args... */
  int status = lua_pcallk(L, n - 2, LUA_MULTRET, 0, 0, finish_xpcall);
  return finish_xpcall(L, status, 0);
}

int pss_lib_setmetatable(lua_State *L) {
  int t = lua_type(L, 2);
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_argexpected(L, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
  if (t == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    int has_gc = lua_rawget(L, 2) != LUA_TNIL;
    lua_pop(L, 1);
    if (has_gc)
      return luaL_error(L, "setmetatable: a metatable with a __gc field is not allowed "
                           "(finalizers are disabled in the sandbox)");
  }
  if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
    return luaL_error(L, "cannot change a protected metatable");
  lua_settop(L, 2);
  lua_setmetatable(L, 1);
  return 1;
}

/* ---- load -------------------------------------------------------------------------------- */

#define READER_SLOT 5
/* Source bytes the parser gets at a time: each piece is charged before it is parsed, so that a
 * chunk of megabytes (about 12 ms of parsing per megabyte here) cannot run long past the CPU
 * budget in one C call. */
#define LOAD_PIECE 4096

/* What the reader hands out: the rest of a string (the chunk, or the reader function's last
 * result, kept alive in READER_SLOT), and whether to call the function when it runs out. */
typedef struct reader_state {
  const char *s;
  size_t left;
  int function;
  const char *mode;  /* as the script gave it */
  int started;       /* the first piece was handed out */
} reader_state;

/* Raises (inside lua_load, which returns it as the load error) what stock Lua says of a chunk
 * the mode does not allow, and the sandbox's reason for refusing every binary chunk. */
static void check_first_piece(lua_State *L, reader_state *r, const char *piece, size_t n) {
  r->started = 1;
  if (n > 0 && piece[0] == LUA_SIGNATURE[0]) {
    lua_pushliteral(L, "attempt to load a binary chunk (only text chunks can be loaded)");
    lua_error(L);
  }
  if (strchr(r->mode, 't') == NULL) {
    lua_pushfstring(L, "attempt to load a text chunk (mode is '%s')", r->mode);
    lua_error(L);
  }
}

static const char *piece_reader(lua_State *L, void *ud, size_t *size) {
  reader_state *r = ud;
  if (r->left == 0 && r->function) {
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, 1);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      r->function = 0;
    } else {
      if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
      lua_replace(L, READER_SLOT);
      r->s = lua_tolstring(L, READER_SLOT, &r->left);
      if (r->left == 0) r->function = 0;  /* an empty piece ends the chunk */
    }
  }
  size_t n = r->left < LOAD_PIECE ? r->left : LOAD_PIECE;
  if (!r->started) check_first_piece(L, r, r->s, n);
  *size = n;
  if (n == 0) return NULL;
  pss_charge(L, n);
  const char *piece = r->s;
  r->s += n;
  r->left -= n;
  return piece;
}

int pss_lib_load(lua_State *L) {
  int status;
  size_t l;
  const char *s = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &l) : NULL;
  const char *mode = luaL_optstring(L, 3, "bt");
  int env = !lua_isnone(L, 4) ? 4 : 0;
  reader_state r = {s, 0, s == NULL, mode, 0};
  const char *chunkname;
  if (s != NULL) {
    r.left = l;
    chunkname = luaL_optstring(L, 2, s);
  } else {
    chunkname = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
  }
  lua_settop(L, READER_SLOT);
  status = lua_load(L, piece_reader, &r, chunkname, "t");
  pss_check_trip(L);
  if (status != LUA_OK) {
    luaL_pushfail(L);
    lua_insert(L, -2);
    return 2;
  }
  /* the chunk runs in the given environment, or else in the script's own */
  if (env != 0) {
    lua_pushvalue(L, env);
  } else {
    pss_context *ctx = pss_ctx(L);
    if (ctx != NULL && ctx->ref_env != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_env);
    else lua_newtable(L);
  }
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  return 1;
}
