/* floor: a minimal C host for one notification, to measure pushscript against on the same
 * machine. It does the work every host must do per request, and nothing else: decode the JSON
 * (lua-cjson), make the content table from the payload's `aps`, run the script's compiled chunk
 * in a fresh environment over the standard library, call didReceive(request, content), encode
 * the answer (lua-cjson). No limits, no checks, no sandbox.
 *
 *   floor SCRIPT PAYLOAD          one run, prints the answer
 *   floor SCRIPT PAYLOAD N        N runs in one state, prints "floor: N runs, p50 X us, p99 Y us"
 *   floor --serve SCRIPT          serve's loop: one request per line on stdin
 *                                 ({"id", "app", "payload"}), one answer per line on stdout
 *
 * Build (Debian: liblua5.4-dev, lua-cjson-dev):
 *   cc -O2 floor.c -I/usr/include/lua5.4 -llua5.4 -l:liblua5.4-cjson.so.0 -o floor */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int luaopen_cjson(lua_State *L);

/* The per-request step in Lua: given the chunk and the request's JSON, the answer's JSON. */
static const char step_source[] =
    "local decode, encode, setenv, base = ...\n"
    "local shared = {__index = base}\n"
    "local function content_of(payload)\n"
    "  local aps = type(payload.aps) == 'table' and payload.aps or {}\n"
    "  local alert = aps.alert\n"
    "  if type(alert) ~= 'table' then alert = {body = alert} end\n"
    "  return {title = alert.title or '', subtitle = alert.subtitle or '', body = alert.body or '',\n"
    "          badge = aps.badge, sound = aps.sound, categoryIdentifier = aps.category or '',\n"
    "          threadIdentifier = aps['thread-id'] or '', userInfo = payload}\n"
    "end\n"
    "local function run(chunk, payload, id)\n"
    "  local content = content_of(payload)\n"
    "  local env = setmetatable({}, shared)\n"
    "  setenv(chunk, 1, env)\n"
    "  chunk()\n"
    "  env.didReceive({identifier = 'request', content = content}, content)\n"
    "  return encode({id = id, outcome = 'completed', content = content})\n"
    "end\n"
    "return function(chunk, text) return run(chunk, decode(text)) end,\n"
    "       function(chunk, line) local r = decode(line); return run(chunk, r.payload, r.id) end\n";

static char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  char *text = NULL;
  size_t used = 0, cap = 0, n;
  do {
    if (used + 4096 > cap) { cap = cap ? cap * 2 : 8192; text = realloc(text, cap); }
    n = fread(text + used, 1, cap - used - 1, f);
    used += n;
  } while (n > 0);
  fclose(f);
  text[used] = 0;
  *size = used;
  return text;
}

static double microseconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Calls the step at registry `step` with the chunk and `text`; leaves the answer on the stack. */
static void call_step(lua_State *L, int step, int chunk, const char *text, size_t size) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, step);
  lua_rawgeti(L, LUA_REGISTRYINDEX, chunk);
  lua_pushlstring(L, text, size);
  if (lua_pcall(L, 2, 1, 0) != LUA_OK) { fprintf(stderr, "floor: %s\n", lua_tostring(L, -1)); exit(1); }
}

int main(int argc, char **argv) {
  int serving = argc == 3 && strcmp(argv[1], "--serve") == 0;
  if (!serving && argc != 3 && argc != 4) {
    fprintf(stderr, "usage: floor SCRIPT PAYLOAD [N] | floor --serve SCRIPT\n");
    return 2;
  }
  const char *script_path = serving ? argv[2] : argv[1];
  size_t script_size, payload_size = 0;
  char *script = read_file(script_path, &script_size);
  char *payload = serving ? NULL : read_file(argv[2], &payload_size);
  int runs = argc == 4 ? atoi(argv[3]) : 0;

  lua_State *L = luaL_newstate();
  static const luaL_Reg libraries[] = {{"_G", luaopen_base}, {"string", luaopen_string},
      {"table", luaopen_table}, {"math", luaopen_math}, {"utf8", luaopen_utf8}, {NULL, NULL}};
  for (const luaL_Reg *lib = libraries; lib->name; lib++) { luaL_requiref(L, lib->name, lib->func, 1); lua_pop(L, 1); }

  if (luaL_loadbuffer(L, step_source, sizeof step_source - 1, "=step") != LUA_OK) {
    fprintf(stderr, "floor: %s\n", lua_tostring(L, -1));
    return 1;
  }
  luaopen_cjson(L);
  lua_getfield(L, -1, "decode");
  lua_getfield(L, -2, "encode");
  lua_remove(L, -3);
  luaL_requiref(L, "debug", luaopen_debug, 0); /* for the step only: setupvalue sets _ENV */
  lua_getfield(L, -1, "setupvalue");
  lua_remove(L, -2);
  lua_pushglobaltable(L);
  lua_call(L, 4, 2);
  int line_step = luaL_ref(L, LUA_REGISTRYINDEX);
  int payload_step = luaL_ref(L, LUA_REGISTRYINDEX);
  if (luaL_loadbuffer(L, script, script_size, script_path) != LUA_OK) {
    fprintf(stderr, "floor: %s\n", lua_tostring(L, -1));
    return 1;
  }
  int chunk = luaL_ref(L, LUA_REGISTRYINDEX);

  if (serving) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t length;
    while ((length = getline(&line, &cap, stdin)) > 0) {
      call_step(L, line_step, chunk, line, (size_t)length);
      size_t size;
      const char *answer = lua_tolstring(L, -1, &size);
      fwrite(answer, 1, size, stdout);
      fputc('\n', stdout);
      lua_pop(L, 1);
    }
    free(line);
  } else if (runs == 0) {
    call_step(L, payload_step, chunk, payload, payload_size);
    puts(lua_tostring(L, -1));
  } else {
    double *took = malloc(sizeof(double) * (size_t)runs);
    for (int i = 0; i < runs; i++) {
      double start = microseconds();
      call_step(L, payload_step, chunk, payload, payload_size);
      lua_pop(L, 1);
      took[i] = microseconds() - start;
    }
    qsort(took, (size_t)runs, sizeof(double), by_value);
    printf("floor: %d runs, p50 %.1f us, p99 %.1f us\n", runs, took[runs / 2], took[(size_t)runs * 99 / 100]);
    free(took);
  }
  lua_close(L);
  free(script);
  free(payload);
  return 0;
}
