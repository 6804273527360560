/* The charged reader of pss_reader.h. */
#include <string.h>
#include "pss_charge.h"
#include "pss_reader.h"

/* Raises (inside lua_load, which returns it as the load error) what stock Lua says of a chunk
 * the mode does not allow, and the sandbox's reason for refusing every binary chunk. */
static void check_first_piece(lua_State *L, pss_reader *r, const char *piece, size_t n) {
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

const char *pss_read_piece(lua_State *L, void *ud, size_t *size) {
  pss_reader *r = ud;
  if (r->left == 0 && r->function_index != 0) {
    luaL_checkstack(L, 2, "too many nested functions");
    lua_pushvalue(L, r->function_index);
    lua_call(L, 0, 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      r->function_index = 0;
    } else {
      if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
      lua_replace(L, r->slot);
      r->s = lua_tolstring(L, r->slot, &r->left);
      if (r->left == 0) r->function_index = 0;  /* an empty piece ends the chunk */
    }
  }
  size_t n = r->left < PSS_LOAD_PIECE ? r->left : PSS_LOAD_PIECE;
  if (r->mode != NULL && !r->started) check_first_piece(L, r, r->s, n);
  *size = n;
  if (n == 0) return NULL;
  /* a whole interval's charge: every piece looks at the clocks (the CPU clock at most once a
   * millisecond), whatever the parser did with the piece before */
  pss_charge(L, PSS_CHARGE_INTERVAL);
  const char *piece = r->s;
  r->s += n;
  r->left -= n;
  return piece;
}
