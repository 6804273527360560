/* Guarded coroutine functions: resume and wrap treat the kill as final, and wrap never
 * closes a killed coroutine (its __close handlers would run with hooks off). Both mark the
 * coroutine as the running Lua thread while it runs, so the limit signal hooks it. */
#include "pss_arm.h"
#include "pss_kill.h"
#include "pss_lib_coroutine.h"

/* Nested resets of failed wrapped coroutines, each of which can run __close handlers that
 * fail in turn; Lua 5.4.4 does not count these against its C-call limit. */
#define MAX_NESTED_RESETS 50

static int auxresume(lua_State *L, lua_State *co, int narg) {
  int status, nres;
  if (!lua_checkstack(co, narg)) {
    lua_pushliteral(L, "too many arguments to resume");
    return -1;
  }
  lua_xmove(L, co, narg);
  pss_context *ctx = pss_ctx(L);
  lua_State *previous = ctx ? pss_enter_thread(ctx, co) : NULL;
  status = lua_resume(co, L, narg, &nres);
  if (ctx) pss_leave_thread(ctx, previous);
  if (status == LUA_OK || status == LUA_YIELD) {
    if (!lua_checkstack(L, nres + 1)) {
      lua_pop(co, nres);
      lua_pushliteral(L, "too many results to resume");
      return -1;
    }
    lua_xmove(co, L, nres);
    return nres;
  }
  lua_xmove(co, L, 1);
  return -1;
}

int pss_lib_coresume(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argexpected(L, co, 1, "coroutine");
  int r = auxresume(L, co, lua_gettop(L) - 1);
  if (r < 0) {
    pss_check_trip(L);
    lua_pushboolean(L, 0);
    lua_insert(L, -2);
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_insert(L, -(r + 1));
  return r + 1;
}

static int auxwrap(lua_State *L) {
  lua_State *co = lua_tothread(L, lua_upvalueindex(1));
  /* A coroutine that fails is reset at once, below, unless the kill stopped it; so one found
   * failed already was killed, in an earlier run in this state (bestAttempt runs after the
   * kill, in the same environment). It is never reset: a kill raised in its hook can leave its
   * hooks off for good, and its __close handlers would then run unchecked. */
  int killed_before = lua_status(co) != LUA_OK && lua_status(co) != LUA_YIELD;
  int r = auxresume(L, co, lua_gettop(L));
  if (r < 0) {
    pss_check_trip(L);
    int stat = lua_status(co);
    pss_context *ctx = pss_ctx(L);
    if (!killed_before && stat != LUA_OK && stat != LUA_YIELD && ctx != NULL &&
        ctx->nested_resets < MAX_NESTED_RESETS) {
      ctx->nested_resets++;
      lua_State *previous = pss_enter_thread(ctx, co);  /* its __close handlers run in co */
      stat = lua_resetthread(co);
      pss_leave_thread(ctx, previous);
      ctx->nested_resets--;
      pss_check_trip(L);
      lua_xmove(co, L, 1);
    }
    if (stat != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
      luaL_where(L, 1);
      lua_insert(L, -2);
      lua_concat(L, 2);
    }
    return lua_error(L);
  }
  return r;
}

int pss_lib_cowrap(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  lua_State *NL = lua_newthread(L);
  lua_pushvalue(L, 1);
  lua_xmove(L, NL, 1);
  lua_pushcclosure(L, auxwrap, 1);
  return 1;
}
