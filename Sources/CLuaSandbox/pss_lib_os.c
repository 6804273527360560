/* os.date that charges its conversions. Stock os.date converts a whole format in one C call,
 * and a format of a megabyte is half a million strftime calls with no hook between them. The
 * guarded one hands a long format to the stock function in short slices that end between
 * conversions, with the same time and the same UTC mark, and charges each slice. */
#include <time.h>
#include "pss_charge.h"
#include "pss_lib_os.h"

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

/* ---- os.time ------------------------------------------------------------------------------
 * Stock os.time converts each field of its table to an integer, and a numeric string of
 * megabytes takes milliseconds: the guarded one reads the fields once, as the stock one does,
 * charges the strings among them, and hands the stock function a plain table of them; the
 * normalized fields it writes there are then written to the script's table, as the stock one
 * writes them. */

static const char *const TIME_READ[] = {"year", "month", "day", "hour", "min", "sec", "isdst", NULL};
static const char *const TIME_WRITTEN[] = {
  "year", "month", "day", "hour", "min", "sec", "yday", "wday", "isdst", NULL,
};

int pss_lib_ostime(lua_State *L) {
  lua_CFunction stock = lua_tocfunction(L, lua_upvalueindex(1));
  if (lua_isnoneornil(L, 1)) return stock(L);
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_createtable(L, 0, 10);  /* 2: the plain table */
  size_t work = 1;
  for (const char *const *key = TIME_READ; *key; key++) {
    if (lua_getfield(L, 1, *key) == LUA_TSTRING) work += lua_rawlen(L, -1);
    lua_setfield(L, 2, *key);
  }
  pss_charge(L, work);
  /* the script's table rides in the plain one, under a key the stock function never reads */
  lua_pushvalue(L, 2);
  lua_pushvalue(L, 1);
  lua_rawset(L, 2);
  lua_remove(L, 1);
  stock(L);  /* leaves the plain table at 1 and the time on top */
  lua_pushvalue(L, 1);
  lua_rawget(L, 1);  /* the script's table */
  for (const char *const *key = TIME_WRITTEN; *key; key++) {
    if (lua_getfield(L, 1, *key) == LUA_TNIL) lua_pop(L, 1);  /* not written */
    else lua_setfield(L, -2, *key);
  }
  lua_pop(L, 1);
  return 1;
}
