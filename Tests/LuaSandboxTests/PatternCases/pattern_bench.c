/* Speed of the project's pattern functions against stock Lua 5.4's, on ordinary patterns.
 * A benchmark, not a test: it prints figures and asserts nothing. From the package root:
 *
 *   gcc -std=gnu11 -O2 -ISources/CLuaSandbox -ISources/CLuaSandbox/include -I/usr/include/lua5.4 \
 *     Tests/LuaSandboxTests/PatternCases/pattern_bench.c Sources/CLuaSandbox/pss*.c -llua5.4 \
 *     -o /tmp/pattern_bench && /tmp/pattern_bench
 *
 * Columns: stock string.X and the project's own.X in a plain state (the matchers alone), then
 * both again in a sandboxed state with a CPU budget armed, where the count hook runs and the
 * project's functions charge their steps (clock reads included). Times are nanoseconds per
 * call, the best of three rounds. */
#include <stdio.h>
#include <string.h>
#include <lualib.h>
#include "pss.h"
#include "pss_context.h"
#include "pss_pattern.h"

static const char *const BENCH =
  "local text = ('The quick brown fox, 42 jumps over the lazy dog (twice)! key=value '):rep(16)\n"
  "local long = ('lorem ipsum dolor sit amet '):rep(4000) .. 'a.b'\n"
  "local vars = {name = 'Bob', age = '42'}\n"
  "local function upper(w) return w:upper() end\n"
  "local cases = {\n"
  " {'find plain word', 'find', {'hello world from lua', 'from'}},\n"
  " {'find %d+', 'find', {text, '%d+'}},\n"
  " {'find [%w_]+=', 'find', {text, '[%w_]+='}},\n"
  " {'find a.b in 108 KB', 'find', {long, 'a%.b'}},\n"
  " {'find plain in 108 KB', 'find', {long, 'a.b', 1, true}},\n"
  " {'match trim', 'match', {'   some padded text   ', '^%s*(.-)%s*$'}},\n"
  " {'match key=value', 'match', {'  key = value', '(%w+)%s*=%s*(%w+)'}},\n"
  " {'match date', 'match', {'on 2024-01-15 at noon', '(%d+)-(%d+)-(%d+)'}},\n"
  " {'match url', 'match', {'https://example.com/a/b?c=d', '^(%a+)://([^/]+)(.*)$'}},\n"
  " {'match %b()', 'match', {'call(f(x), g(y, z)) rest', '%b()'}},\n"
  " {'match %f[%a]', 'match', {'123 abc 456', '%f[%a]%a+'}},\n"
  " {'gmatch %a+ (1 KB)', 'gmatch', {text, '%a+'}},\n"
  " {'gsub %s+ (1 KB)', 'gsub', {text, '%s+', ' '}},\n"
  " {'gsub %w+ function (1 KB)', 'gsub', {text, '%w+', upper}},\n"
  " {'gsub $var table', 'gsub', {'hi $name, you are $age', '%$(%w+)', vars}},\n"
  " {'gsub (%w+) %1%1', 'gsub', {'one two three four', '(%w+)', '%1%1'}},\n"
  "}\n"
  "local function time(lib, c)\n"
  "  local f, args, n = lib[c[2]], c[3], 0\n"
  "  local best = math.huge\n"
  "  for _ = 1, 3 do\n"
  "    local calls, t0 = 0, os.clock()\n"
  "    repeat\n"
  "      for _ = 1, 50 do\n"
  "        if c[2] == 'gmatch' then for _ in f(table.unpack(args)) do end\n"
  "        else f(table.unpack(args)) end\n"
  "      end\n"
  "      calls = calls + 50\n"
  "    until os.clock() - t0 > 0.1\n"
  "    best = math.min(best, (os.clock() - t0) / calls * 1e9)\n"
  "  end\n"
  "  return best\n"
  "end\n"
  "local out = {}\n"
  "for _, c in ipairs(cases) do out[#out + 1] = {c[1], time(stock, c), time(own, c)} end\n"
  "return out\n";

/* Makes `stock` and `own` globals of L and runs the benchmark; leaves its result on top. */
static void run(lua_State *L, int sandboxed) {
  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 0);
  lua_setglobal(L, "stock");
  static const luaL_Reg own[] = {
    {"find", pss_str_find}, {"match", pss_str_match}, {"gmatch", pss_str_gmatch},
    {"gsub", pss_str_gsub}, {NULL, NULL},
  };
  luaL_newlib(L, own);
  lua_setglobal(L, "own");
  if (sandboxed) {  /* the sandbox's globals lack these; the benchmark needs them */
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_OSLIBNAME, luaopen_os, 1);
    lua_settop(L, 0);
    /* string methods of the sandbox (the locked metatable) call the project's functions */
  }
  if (luaL_dostring(L, BENCH) != LUA_OK) {
    fprintf(stderr, "benchmark failed: %s\n", lua_tostring(L, -1));
    return;
  }
}

int main(void) {
  lua_State *plain = luaL_newstate();
  *(pss_context **)lua_getextraspace(plain) = NULL;  /* no sandbox: charging is a no-op */
  luaL_openlibs(plain);
  run(plain, 0);

  size_t memory = (size_t)64 << 20;
  pss_context *ctx = pss_state_new(memory, NULL);
  if (ctx == NULL) return 1;
  pss_limits_arm(ctx, (int64_t)1000 * 1000000000, 0, memory);  /* 1000 s: never trips */
  lua_State *L = ctx->L;
  run(L, 1);

  printf("%-26s %9s %9s %7s   %9s %9s %7s\n", "ns per call", "stock", "own", "ratio",
         "sb stock", "sb own", "ratio");
  int n = (int)lua_rawlen(plain, -1);
  for (int i = 1; i <= n; i++) {
    lua_rawgeti(plain, -1, i);
    lua_rawgeti(L, -1, i);
    lua_rawgeti(plain, -1, 1);
    lua_rawgeti(plain, -2, 2);
    lua_rawgeti(plain, -3, 3);
    lua_rawgeti(L, -1, 2);
    lua_rawgeti(L, -2, 3);
    double stock = lua_tonumber(plain, -2), own = lua_tonumber(plain, -1);
    double sb_stock = lua_tonumber(L, -2), sb_own = lua_tonumber(L, -1);
    printf("%-26s %9.0f %9.0f %7.2f   %9.0f %9.0f %7.2f\n", lua_tostring(plain, -3), stock,
           own, own / stock, sb_stock, sb_own, sb_own / sb_stock);
    lua_pop(plain, 4);
    lua_pop(L, 3);
  }
  lua_close(plain);
  pss_state_close(ctx);
  return 0;
}
