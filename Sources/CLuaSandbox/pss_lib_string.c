/* string.rep that checks the size of its result before building it and charges the copying. */
#include <limits.h>
#include <string.h>
#include "pss_alloc.h"
#include "pss_charge.h"
#include "pss_kill.h"
#include "pss_lib_string.h"

/* Results larger than this are refused as "resulting string too large" (a plain error), as
 * stock Lua refuses them; smaller ones that do not fit the memory limit trip it. */
#define REP_MAX ((size_t)INT_MAX)

int pss_lib_strrep(lua_State *L) {
  size_t l, lsep;
  const char *s = luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  const char *sep = luaL_optlstring(L, 3, "", &lsep);
  pss_check_trip(L);
  if (n <= 0 || (l + lsep == 0)) {
    lua_pushliteral(L, "");
    return 1;
  }
  /* total = l * n + lsep * (n - 1) <= (l + lsep) * n, refused past REP_MAX as stock Lua's is */
  if (l + lsep < l || l + lsep > REP_MAX / (lua_Unsigned)n)
    return luaL_error(L, "resulting string too large");
  size_t total = l * (size_t)n + lsep * (size_t)(n - 1);
  pss_reserve(L, total);
  luaL_Buffer b;
  char *p = luaL_buffinitsize(L, &b, total);
  /* One copy and its separator, then what is filled copied onto the rest, doubling it each
   * time: the result repeats every l + lsep bytes, and the last separator falls off the end. */
  memcpy(p, s, l);
  size_t filled = l;
  if (n > 1) {
    memcpy(p + l, sep, lsep);
    filled += lsep;
  }
  while (filled < total) {
    size_t k = filled < total - filled ? filled : total - filled;
    memcpy(p + filled, p, k);
    filled += k;
    pss_charge(L, 1 + k / 64);
  }
  luaL_pushresultsize(&b, total);
  return 1;
}
