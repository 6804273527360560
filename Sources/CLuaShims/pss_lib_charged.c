/* Stock functions whose work grows with their arguments (a sort, the case of a megabyte),
 * called through a charge of that work. A call's own work cannot be stopped once it started,
 * but charging it before reads the clocks before every big call: a loop of such calls then
 * ends within one call of the budget, where the count hook, which runs once per thousand
 * instructions, would let it make hundreds of calls first. */
#include "pss_lib.h"

/* Charged span between arguments 2 and 3, at most (table.unpack(t, 1, 1e15) fails on its own
 * long before it could do that much). */
#define SPAN_MAX ((size_t)1 << 40)

/* The work of a call: its argument count and the lengths of its strings and tables. */
static size_t work_of(lua_State *L) {
  int n = lua_gettop(L);
  size_t work = (size_t)n;
  for (int i = 1; i <= n; i++) {
    int t = lua_type(L, i);
    if (t == LUA_TSTRING || t == LUA_TTABLE) work += lua_rawlen(L, i);
  }
  return work;
}

/* upvalue: the stock function (a light C function), which runs in this frame: it must use no
 * upvalues of its own */
static int charged(lua_State *L) {
  pss_charge(L, work_of(L));
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* The same, with the span between arguments 2 and 3 as work too, when they are integers (or
 * floats with integer values, as table.unpack takes them). */
static int charged_span(lua_State *L) {
  size_t work = work_of(L);
  int ok_i, ok_j;
  lua_Integer i = lua_tointegerx(L, 2, &ok_i), j = lua_tointegerx(L, 3, &ok_j);
  if (ok_i && ok_j && j > i) {
    lua_Unsigned span = (lua_Unsigned)j - (lua_Unsigned)i;
    work += span < SPAN_MAX ? (size_t)span : SPAN_MAX;
  }
  pss_charge(L, work);
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

void pss_push_charged(lua_State *L, lua_CFunction f, int span) {
  lua_pushcfunction(L, f);
  lua_pushcclosure(L, span ? charged_span : charged, 1);
}
