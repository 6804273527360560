/* math.random and math.randomseed with a generator per environment: stock Lua keeps the
 * generator's state in the functions' upvalue, which every request's environment shares, so a
 * seed set in one request would decide the numbers of the next (SPEC section 1: nothing a
 * script sets is visible in the next request). The algorithm is Lua 5.4's (xoshiro256**, the
 * same projection into intervals); each new environment starts from a fresh random seed. */
#include "pss_clock.h"
#include "pss_lib_math.h"

static const char *const RANDOM_KEY = "pss.random";

static uint64_t rotl(uint64_t x, int n) { return (x << n) | (x >> (64 - n)); }

static uint64_t next_random(uint64_t *s) {
  uint64_t s0 = s[0], s1 = s[1], s2 = s[2] ^ s0, s3 = s[3] ^ s1;
  uint64_t result = rotl(s1 * 5, 7) * 9;
  s[0] = s0 ^ s3;
  s[1] = s1 ^ s2;
  s[2] = s2 ^ (s1 << 17);
  s[3] = rotl(s3, 45);
  return result;
}

static void set_seed(uint64_t *s, uint64_t n1, uint64_t n2) {
  s[0] = n1;
  s[1] = 0xff;
  s[2] = n2;
  s[3] = 0;
  for (int i = 0; i < 16; i++) next_random(s);
}

/* A seed nobody can predict from inside: the clock, the environment's address, a counter. */
static uint64_t fresh_seed(const void *env) {
  static _Atomic uint64_t counter = 0;
  uint64_t z = (uint64_t)pss_monotonic_now_ns() ^ (uint64_t)(uintptr_t)env ^
               (atomic_fetch_add(&counter, 1) * 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The generator of the running environment, made with a fresh seed when the environment has
 * none yet. The registry keeps one: {environment, state}. */
static uint64_t *generator(lua_State *L) {
  pss_context *ctx = pss_ctx(L);
  luaL_checkstack(L, 4, "no room for math.random");
  if (ctx != NULL && ctx->ref_env != LUA_NOREF) lua_rawgeti(L, LUA_REGISTRYINDEX, ctx->ref_env);
  else lua_pushboolean(L, 1);  /* a plain state: one generator */
  int env = lua_gettop(L);
  if (lua_getfield(L, LUA_REGISTRYINDEX, RANDOM_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, RANDOM_KEY);
  }
  int slot = lua_gettop(L);
  lua_rawgeti(L, slot, 1);
  int same = lua_rawequal(L, -1, env);
  lua_pop(L, 1);
  uint64_t *s;
  if (same && lua_rawgeti(L, slot, 2) == LUA_TUSERDATA) {
    s = lua_touserdata(L, -1);
  } else {
    if (same) lua_pop(L, 1);
    s = lua_newuserdatauv(L, 4 * sizeof(uint64_t), 0);
    set_seed(s, fresh_seed(lua_topointer(L, env)), fresh_seed(s));
    lua_rawseti(L, slot, 2);
    lua_pushvalue(L, env);
    lua_rawseti(L, slot, 1);
    lua_rawgeti(L, slot, 2);
  }
  lua_pop(L, 3);  /* the state stays alive in the registry's slot */
  return s;
}

/* A random integer in [0, n], as Lua 5.4 projects it. */
static uint64_t project(uint64_t random, uint64_t n, uint64_t *s) {
  if ((n & (n + 1)) == 0) return random & n;  /* n + 1 is a power of 2 */
  uint64_t lim = n;
  lim |= lim >> 1;
  lim |= lim >> 2;
  lim |= lim >> 4;
  lim |= lim >> 8;
  lim |= lim >> 16;
  lim |= lim >> 32;
  while ((random &= lim) > n) random = next_random(s);
  return random;
}

int pss_lib_random(lua_State *L) {
  lua_Integer low, up;
  uint64_t *s = generator(L);
  uint64_t rv = next_random(s);
  switch (lua_gettop(L)) {
    case 0:
      lua_pushnumber(L, (lua_Number)(rv >> 11) * 0x1.0p-53);
      return 1;
    case 1:
      low = 1;
      up = luaL_checkinteger(L, 1);
      if (up == 0) {
        lua_pushinteger(L, (lua_Integer)rv);
        return 1;
      }
      break;
    case 2:
      low = luaL_checkinteger(L, 1);
      up = luaL_checkinteger(L, 2);
      break;
    default: return luaL_error(L, "wrong number of arguments");
  }
  luaL_argcheck(L, low <= up, 1, "interval is empty");
  uint64_t p = project(rv, (uint64_t)up - (uint64_t)low, s);
  lua_pushinteger(L, (lua_Integer)(p + (uint64_t)low));
  return 1;
}

int pss_lib_randomseed(lua_State *L) {
  uint64_t *s = generator(L);
  uint64_t n1, n2;
  if (lua_isnone(L, 1)) {
    n1 = fresh_seed(s);
    n2 = next_random(s);
  } else {
    n1 = (uint64_t)luaL_checkinteger(L, 1);
    n2 = (uint64_t)luaL_optinteger(L, 2, 0);
  }
  set_seed(s, n1, n2);
  lua_pushinteger(L, (lua_Integer)n1);
  lua_pushinteger(L, (lua_Integer)n2);
  return 2;
}
