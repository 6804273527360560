/* Stock functions whose work grows with their arguments (a sort, the case of a megabyte),
 * called through a charge of that work. A call's own work cannot be stopped once it started,
 * but charging it before reads the clocks before every big call: a loop of such calls then
 * ends within one call of the budget, where the count hook, which runs once per thousand
 * instructions, would let it make hundreds of calls first. */
#include "pss_charge.h"
#include "pss_lib_charged.h"

/* Charged span between arguments 2 and 3, at most (table.unpack(t, 1, 1e15) fails on its own
 * long before it could do that much). */
#define SPAN_MAX ((size_t)1 << 40)

/* The string bytes one call may be given when they are more than the memory limit: the
 * strings a state holds are within its memory limit, so more bytes than that are a string
 * passed many times, and a stock function that converts each argument to a number
 * (string.char, utf8.char, string.format's %d) would read them all in one call that no check
 * can stop: 2,000 copies of a 7 MB numeric string are half a minute. */
#define STRING_ARGS_FLOOR ((size_t)16 << 20)

/* The work of a call: its argument count and the lengths of its strings and tables. Raises
 * when its string arguments add up to more than the memory limit and STRING_ARGS_FLOOR. */
static size_t work_of(lua_State *L) {
  int n = lua_gettop(L);
  size_t work = (size_t)n, text = 0;
  for (int i = 1; i <= n; i++) {
    int t = lua_type(L, i);
    if (t == LUA_TSTRING) {
      size_t len = lua_rawlen(L, i);
      work += len;
      text += len;
    } else if (t == LUA_TTABLE) {
      work += lua_rawlen(L, i);
    }
  }
  pss_context *ctx = pss_ctx(L);
  size_t cap = ctx != NULL && ctx->limit > STRING_ARGS_FLOOR ? ctx->limit : STRING_ARGS_FLOOR;
  if (text > cap)
    luaL_error(L, "too much text in one call: %I bytes of string arguments, at most %I; "
               "pass a long string fewer times", (lua_Integer)text, (lua_Integer)cap);
  return work;
}

/* Charges a call's work before it runs: a call of a megabyte or more is one stretch no check
 * can stop (four 7 MB numeric strings to string.char are 30 ms of conversion), so it is not
 * started when the budget left cannot cover it. */
static void charge(lua_State *L, size_t work) {
  pss_charge(L, work);
  if (work >= PSS_AHEAD_STEPS) pss_charge_ahead(L, work);
}

/* upvalue: the stock function (a light C function), which runs in this frame: it must use no
 * upvalues of its own */
static int charged(lua_State *L) {
  charge(L, work_of(L));
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* The same, with the span between arguments 2 and 3 as work too, when they are integers (or
 * floats with integer values, as table.unpack takes them). */
static int charged_span(lua_State *L) {
  size_t work = work_of(L);
  /* only the arguments' own size is looked at ahead: a span is refused at once when it is
   * too big (table.unpack's "too many results") */
  if (work >= PSS_AHEAD_STEPS) pss_charge_ahead(L, work);
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
