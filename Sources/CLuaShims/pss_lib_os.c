/* os.date that charges its conversions. Stock os.date converts a whole format in one C call,
 * and a format of a megabyte is half a million strftime calls with no hook between them. The
 * guarded one hands a long format to the stock function in short slices that end between
 * conversions, with the same time and the same UTC mark, and charges each slice. */
#include <time.h>
#include "pss_lib.h"

/* Format bytes the stock function converts in one call. */
#define DATE_SLICE 256

/* The end of the slice of `s` (length `len`) that starts at `i`: at least DATE_SLICE bytes on,
 * never inside a conversion ('%', an optional 'E' or 'O', a letter), and the end of the format
 * when less than a few bytes would be left (so that no slice but a whole format is "*t"). */
static size_t slice_end(const char *s, size_t len, size_t i) {
  size_t j = i;
  while (j < len && j - i < DATE_SLICE) {
    if (s[j] != '%') j++;
    else if (j + 1 < len && (s[j + 1] == 'E' || s[j + 1] == 'O')) j += 3;
    else j += 2;
  }
  return j + 8 < len ? j : len;
}

/* upvalue: the stock os.date */
int pss_lib_osdate(lua_State *L) {
  size_t len;
  const char *s = luaL_optlstring(L, 1, "%c", &len);
  if (len <= DATE_SLICE) {
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, 1);
    return 1;
  }
  int utc = s[0] == '!';
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_pushinteger(L, (lua_Integer)time(NULL));
  }
  lua_settop(L, 2);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  for (size_t i = utc; i < len;) {
    size_t end = slice_end(s, len, i);
    pss_charge(L, end - i);
    lua_pushvalue(L, lua_upvalueindex(1));
    if (utc) {
      lua_pushliteral(L, "!");
      lua_pushlstring(L, s + i, end - i);
      lua_concat(L, 2);
    } else {
      lua_pushlstring(L, s + i, end - i);
    }
    lua_pushvalue(L, 2);
    lua_call(L, 2, 1);
    luaL_addvalue(&b);
    i = end;
  }
  luaL_pushresult(&b);
  return 1;
}
