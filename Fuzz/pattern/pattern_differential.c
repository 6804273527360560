/* Fuzz target: the project's pattern matcher against stock Lua 5.4's, on the same inputs.
 *
 * The input is a pattern and a subject separated by the first 0xFF byte. Both are kept short
 * and the pattern has at most three repetition items, so that stock Lua (which counts no steps)
 * finishes every case. find, match, gmatch and gsub run through both matchers in a plain Lua
 * state; their results (values with their types) or error messages must be equal. A
 * difference aborts with both results. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lauxlib.h>
#include <lualib.h>
#include "pss_pattern_testing.h"

static const char *compare_source =
  "local stock, own = string, own\n"
  "local function show(ok, ...)\n"
  "  local out = {ok and 'ok' or 'error'}\n"
  "  for i = 1, select('#', ...) do\n"
  "    local v = select(i, ...)\n"
  "    out[#out + 1] = math.type(v) or type(v)\n"
  "    out[#out + 1] = tostring(v)\n"
  "  end\n"
  "  return table.concat(out, ' | ')\n"
  "end\n"
  "local function iterate(lib, s, p)\n"
  "  local out = {}\n"
  "  for a, b in lib.gmatch(s, p) do\n"
  "    out[#out + 1] = tostring(a) .. ',' .. tostring(b)\n"
  "    if #out > 64 then break end\n"
  "  end\n"
  "  return table.concat(out, ';')\n"
  "end\n"
  "return function(p, s)\n"
  "  local cases = {\n"
  "    {'find', function(lib) return lib.find(s, p) end},\n"
  "    {'find init 2', function(lib) return lib.find(s, p, 2) end},\n"
  "    {'match', function(lib) return lib.match(s, p) end},\n"
  "    {'gmatch', function(lib) return iterate(lib, s, p) end},\n"
  "    {'gsub', function(lib) return lib.gsub(s, p, '<%0>') end},\n"
  "    {'gsub 2', function(lib) return lib.gsub(s, p, '%%', 2) end},\n"
  "  }\n"
  "  for _, c in ipairs(cases) do\n"
  "    local a = show(pcall(c[2], stock))\n"
  "    local b = show(pcall(c[2], own))\n"
  "    if a ~= b then return c[1] .. ':\\n  stock: ' .. a .. '\\n  own:   ' .. b end\n"
  "  end\n"
  "  return nil\n"
  "end\n";

static lua_State *L;

static void setup(void) {
  L = luaL_newstate();
  /* A plain state has no sandbox context: the project's matcher then charges nothing. */
  *(void **)lua_getextraspace(L) = NULL;
  luaL_openlibs(L);
  pss_testing_open_own_patterns(L);
  if (luaL_loadstring(L, compare_source) != LUA_OK || lua_pcall(L, 0, 1, 0) != LUA_OK) {
    fprintf(stderr, "pattern_differential: %s\n", lua_tostring(L, -1));
    abort();
  }
  lua_setglobal(L, "compare");
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) {
  if (L == NULL) setup();
  const unsigned char *sep = memchr(data, 0xFF, size);
  if (sep == NULL) return 0;
  size_t plen = (size_t)(sep - data), slen = size - plen - 1;
  if (plen > 16 || slen > 24) return 0;
  int repeats = 0;
  for (size_t i = 0; i < plen; i++) {
    if (data[i] == '%') { i++; continue; }
    if (data[i] == '*' || data[i] == '+' || data[i] == '-' || data[i] == '?') repeats++;
  }
  if (repeats > 3) return 0;
  lua_getglobal(L, "compare");
  lua_pushlstring(L, (const char *)data, plen);
  lua_pushlstring(L, (const char *)sep + 1, slen);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) {
    fprintf(stderr, "pattern_differential: the comparison failed: %s\n", lua_tostring(L, -1));
    abort();
  }
  if (!lua_isnil(L, -1)) {
    fprintf(stderr, "pattern_differential: the matchers differ on pattern \"%.*s\", subject \"%.*s\" in %s\n",
            (int)plen, (const char *)data, (int)slen, (const char *)sep + 1, lua_tostring(L, -1));
    abort();
  }
  lua_pop(L, 1);
  lua_gc(L, LUA_GCSTEP, 0);
  return 0;
}
