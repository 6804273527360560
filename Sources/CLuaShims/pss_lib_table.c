/* table.move, table.concat, table.insert and table.remove that charge every element they
 * touch, and table.sort that charges the comparisons it makes in C. insert and remove shift the elements above a position one by one in C, as far as the
 * table's length says, and __len can say math.maxinteger: uncharged, that loop never ends. */
#include "pss_lib.h"

/* table.insert(t, [pos,] value) */
int pss_lib_tinsert(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer end = (lua_Integer)((lua_Unsigned)luaL_len(L, 1) + 1u);  /* first empty slot */
  lua_Integer pos = end;
  switch (lua_gettop(L)) {
    case 2: break;
    case 3:
      pos = luaL_checkinteger(L, 2);
      luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)end, 2, "position out of bounds");
      for (lua_Integer i = end; i > pos; i--) {
        pss_charge(L, 1);
        lua_geti(L, 1, i - 1);
        lua_seti(L, 1, i);
      }
      break;
    default: return luaL_error(L, "wrong number of arguments to 'insert'");
  }
  lua_seti(L, 1, pos);  /* the value is on top */
  return 0;
}

/* table.remove(t [, pos]) */
int pss_lib_tremove(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer size = luaL_len(L, 1);
  lua_Integer pos = luaL_optinteger(L, 2, size);
  if (pos != size)
    luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 2, "position out of bounds");
  lua_geti(L, 1, pos);  /* the result */
  for (; pos < size; pos++) {
    pss_charge(L, 1);
    lua_geti(L, 1, pos + 1);
    lua_seti(L, 1, pos);
  }
  lua_pushnil(L);
  lua_seti(L, 1, pos);
  return 1;
}

int pss_lib_tmove(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  lua_Integer t = luaL_checkinteger(L, 4);
  int tt = !lua_isnoneornil(L, 5) ? 5 : 1;  /* destination table */
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, tt, LUA_TTABLE);
  if (e >= f) {
    lua_Integer n, i;
    luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
    n = e - f + 1;
    luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
    if (t > e || t <= f || (tt != 1 && !lua_compare(L, 1, tt, LUA_OPEQ))) {
      for (i = 0; i < n; i++) {
        pss_charge(L, 1);
        lua_geti(L, 1, f + i);
        lua_seti(L, tt, t + i);
      }
    } else {
      for (i = n - 1; i >= 0; i--) {
        pss_charge(L, 1);
        lua_geti(L, 1, f + i);
        lua_seti(L, tt, t + i);
      }
    }
  }
  lua_pushvalue(L, tt);
  return 1;
}

static void addfield(lua_State *L, luaL_Buffer *b, lua_Integer i) {
  lua_geti(L, 1, i);
  if (!lua_isstring(L, -1))
    luaL_error(L, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(L, -1),
               (LUAI_UACINT)i);
  luaL_addvalue(b);
}

int pss_lib_tconcat(lua_State *L) {
  luaL_Buffer b;
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer last = luaL_len(L, 1);
  size_t lsep;
  const char *sep = luaL_optlstring(L, 2, "", &lsep);
  lua_Integer i = luaL_optinteger(L, 3, 1);
  last = luaL_optinteger(L, 4, last);
  luaL_buffinit(L, &b);
  for (; i < last; i++) {
    pss_charge(L, 1 + lsep / 64);
    addfield(L, &b, i);
    luaL_addlstring(&b, sep, lsep);
  }
  if (i == last) addfield(L, &b, i);
  luaL_pushresult(&b);
  return 1;
}

/* ---- table.sort -------------------------------------------------------------------------
 * Stock sort compares in C: with no comparator it compares strings with strcoll, which reads
 * a pair of strings to their first difference or to their end, and a C function as the
 * comparator (or as the elements' __lt) runs no hook. A million references to one string of a
 * kilobyte are seconds of comparing in one call. The guarded sort hands such sorts a
 * comparator that charges each comparison (the lengths of its strings), so that the limits
 * are checked between comparisons: every sort of a table holding a string, whatever its length.
 * A Lua comparator runs under the hook as it is. */

/* upvalue: the script's comparator (a C function), or nil for `<` */
static int charged_less(lua_State *L) {
  lua_settop(L, 2);
  size_t work = 1;
  for (int i = 1; i <= 2; i++)
    if (lua_type(L, i) == LUA_TSTRING) work += lua_rawlen(L, i);
  pss_charge(L, work);
  if (lua_isnil(L, lua_upvalueindex(1))) {
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 2, 1);
  return 1;
}

/* Whether the elements of the table at 1 (no metatable) include a string, or a value whose
 * __lt is a C function. */
static int has_costly_elements(lua_State *L) {
  lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  for (lua_Integer i = 1; i <= n; i++) {
    int t = lua_rawgeti(L, 1, i);
    int costly = t == LUA_TSTRING;
    if ((t == LUA_TTABLE || t == LUA_TUSERDATA) && lua_getmetatable(L, -1)) {
      lua_pushliteral(L, "__lt");
      lua_rawget(L, -2);
      costly = lua_iscfunction(L, -1);
      lua_pop(L, 2);
    }
    lua_pop(L, 1);
    if (costly) return 1;
  }
  return 0;
}

/* table.sort(t [, comp]); upvalue: the stock sort */
int pss_lib_tsort(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  pss_charge(L, 2 + lua_rawlen(L, 1));
  int charge_each = 0;
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    lua_pushnil(L);
    int has_mt = lua_getmetatable(L, 1);
    if (has_mt) lua_pop(L, 1);
    charge_each = has_mt || has_costly_elements(L);
  } else {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    charge_each = lua_iscfunction(L, 2);
  }
  if (charge_each) {
    lua_pushcclosure(L, charged_less, 1);
  } else if (lua_isnil(L, 2)) {
    lua_settop(L, 1);
  }
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}
