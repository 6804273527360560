/* Test support for the pattern matcher: a plain Lua state in which a test chunk can call the
 * stock pattern functions (string.*) and the project's (own.*) side by side. Not used by the
 * host. */
#include <string.h>
#include <lualib.h>
#include "pss_pattern.h"
#include "pss_pattern_testing.h"

typedef struct compare_args {
  const char *source;
  size_t length;
  long count;
  pss_buffer *report;
} compare_args;

void pss_testing_open_own_patterns(lua_State *L) {
  static const luaL_Reg own[] = {
    {"find", pss_str_find}, {"match", pss_str_match}, {"gmatch", pss_str_gmatch},
    {"gsub", pss_str_gsub}, {NULL, NULL},
  };
  luaL_newlib(L, own);
  lua_setglobal(L, "own");
}

/* Runs inside lua_pcall: opens the libraries, makes `own`, runs the chunk. */
static int p_compare(lua_State *L) {
  compare_args *a = lua_touserdata(L, 1);
  luaL_openlibs(L);
  pss_testing_open_own_patterns(L);
  if (luaL_loadbufferx(L, a->source, a->length, "=pattern cases", "t") != LUA_OK)
    return lua_error(L);
  lua_call(L, 0, 2);
  if (!lua_isinteger(L, -2) || lua_type(L, -1) != LUA_TSTRING)
    return luaL_error(L, "the chunk must return an integer and a string");
  a->count = (long)lua_tointeger(L, -2);
  size_t n;
  const char *text = lua_tolstring(L, -1, &n);
  if (!pss_buffer_append(a->report, text, n)) return luaL_error(L, "out of memory");
  return 0;
}

long pss_testing_pattern_compare(const char *source, size_t length, pss_buffer *report) {
  lua_State *L = luaL_newstate();
  if (L == NULL) return -1;
  /* A plain state has no sandbox context: pss_charge then charges nothing. */
  *(pss_context **)lua_getextraspace(L) = NULL;
  compare_args a = {source, length, -1, report};
  lua_pushcfunction(L, p_compare);
  lua_pushlightuserdata(L, &a);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    size_t n = 0;
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &n) : NULL;
    if (msg == NULL) msg = "(error object is not a string)", n = strlen(msg);
    pss_buffer_append(report, msg, n);
    a.count = -1;
  }
  lua_close(L);
  return a.count;
}
