/* Guarded base functions: pcall and xpcall that cannot catch the kill (xpcall runs its
 * message handler after unwinding, under the hook), and load that compiles text only, in the
 * script's environment, charging the source it parses. The functions that look past
 * metatables are pss_lib_raw.c's. */
#include <string.h>
#include "pss_kill.h"
#include "pss_lib_base.h"
#include "pss_proxy.h"
#include "pss_reader.h"

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

/* ---- load -------------------------------------------------------------------------------- */

/* where a reader function's last result is kept alive while the parser reads it */
#define READER_SLOT 5

int pss_lib_load(lua_State *L) {
  int status;
  size_t l;
  const char *s = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &l) : NULL;
  const char *mode = luaL_optstring(L, 3, "bt");
  int env = !lua_isnone(L, 4) ? 4 : 0;
  /* the reader checks the first piece: stock's message for a mode without 't', and the
   * sandbox's reason for refusing a binary chunk */
  pss_reader r = {s, 0, s == NULL ? 1 : 0, READER_SLOT, mode, 0};
  const char *chunkname;
  if (s != NULL) {
    r.left = l;
    chunkname = luaL_optstring(L, 2, s);
  } else {
    chunkname = luaL_optstring(L, 2, "=(load)");
    luaL_checktype(L, 1, LUA_TFUNCTION);
  }
  lua_settop(L, READER_SLOT);
  status = lua_load(L, pss_read_piece, &r, chunkname, "t");
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

/* given(name): what the running environment gave, or gives now, under the template's `name`,
 * whatever the script assigned to that name since; given(): the host's own table of the
 * running environment (pss_proxy_push_environment_store). Nil outside a run. */
int pss_lib_given(lua_State *L) {
  lua_settop(L, 1);
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL || ctx->ref_env == LUA_NOREF) {
    lua_pushnil(L);
    return 1;
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_env);
  if (lua_isnil(L, 1)) pss_proxy_push_environment_store(L, 2);
  else pss_proxy_push_environment_given(L, 2, 1);
  return 1;
}
