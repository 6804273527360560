/* The library scripts get (pss_lib.h), written as tables: one per library table, listing each
 * function and how it is made from the stock one, and one of the library tables; pss_lib_open
 * walks them. */
#include <lualib.h>
#include "pss_lib.h"
#include "pss_lib_base.h"
#include "pss_lib_charged.h"
#include "pss_lib_coroutine.h"
#include "pss_lib_math.h"
#include "pss_lib_os.h"
#include "pss_lib_raw.h"
#include "pss_lib_sort.h"
#include "pss_lib_string.h"
#include "pss_lib_table.h"
#include "pss_pattern.h"

/* How a field of a library table is made. */
typedef enum how {
  /* the stock field as it is: a function whose work does not grow with its arguments, or a
   * value */
  STOCK,
  /* the stock function after a charge of the work its arguments make (pss_push_charged): its
   * work grows with them. A number given as a string counts too: converting a numeric string of
   * megabytes takes milliseconds, in one C call. */
  CHARGED,
  /* the same, with the span between its integer arguments 2 and 3 as work too */
  CHARGED_SPAN,
  /* the sandbox's own function */
  GUARDED,
  /* the sandbox's own function, after a charge of its arguments */
  GUARDED_CHARGED,
  /* the sandbox's own function, with the stock one as its upvalue */
  WRAPPING,
} how;

typedef struct field {
  const char *name;
  how how;
  lua_CFunction f;  /* the sandbox's own (GUARDED, GUARDED_CHARGED, WRAPPING) */
} field;

static const field base_fields[] = {
  {"assert", STOCK, NULL},
  {"error", CHARGED, NULL},
  {"ipairs", STOCK, NULL},
  {"select", CHARGED, NULL},
  {"tostring", STOCK, NULL},
  {"type", STOCK, NULL},
  {"rawequal", STOCK, NULL},
  {"_VERSION", STOCK, NULL},
  {"tonumber", CHARGED, NULL},
  {"pcall", GUARDED, pss_lib_pcall},
  {"xpcall", GUARDED, pss_lib_xpcall},
  {"setmetatable", GUARDED, pss_lib_setmetatable},
  {"rawset", GUARDED, pss_lib_rawset},
  {"rawget", GUARDED, pss_lib_rawget},
  {"rawlen", GUARDED, pss_lib_rawlen},
  {"next", GUARDED, pss_lib_next},
  {"pairs", GUARDED, pss_lib_pairs},
  {"getmetatable", GUARDED, pss_lib_getmetatable},
  {"load", GUARDED, pss_lib_load},
  {NULL, STOCK, NULL},
};

static const field string_fields[] = {
  {"len", STOCK, NULL},
  {"byte", CHARGED, NULL},
  {"char", CHARGED, NULL},
  {"format", CHARGED, NULL},
  {"lower", CHARGED, NULL},
  {"pack", CHARGED, NULL},
  {"packsize", CHARGED, NULL},
  {"reverse", CHARGED, NULL},
  {"sub", CHARGED, NULL},
  {"unpack", CHARGED, NULL},
  {"upper", CHARGED, NULL},
  {"rep", GUARDED_CHARGED, pss_lib_strrep},
  {"find", GUARDED_CHARGED, pss_str_find},
  {"match", GUARDED_CHARGED, pss_str_match},
  {"gmatch", GUARDED_CHARGED, pss_str_gmatch},
  {"gsub", GUARDED_CHARGED, pss_str_gsub},
  {NULL, STOCK, NULL},
};

static const field table_fields[] = {
  {"pack", CHARGED, NULL},
  {"unpack", CHARGED_SPAN, NULL},
  {"move", GUARDED_CHARGED, pss_lib_tmove},
  {"concat", GUARDED_CHARGED, pss_lib_tconcat},
  {"insert", GUARDED_CHARGED, pss_lib_tinsert},
  {"remove", GUARDED_CHARGED, pss_lib_tremove},
  {"sort", WRAPPING, pss_lib_tsort},
  {NULL, STOCK, NULL},
};

/* after every stock field of math, charged (math.abs of a numeric string of megabytes converts
 * all of it) */
static const field math_fields[] = {
  {"random", GUARDED, pss_lib_random},
  {"randomseed", GUARDED, pss_lib_randomseed},
  {NULL, STOCK, NULL},
};

static const field utf8_fields[] = {
  {"charpattern", STOCK, NULL},
  {"codes", STOCK, NULL},
  {"char", CHARGED, NULL},
  {"codepoint", CHARGED, NULL},
  {"len", CHARGED, NULL},
  {"offset", CHARGED, NULL},
  {NULL, STOCK, NULL},
};

static const field coroutine_fields[] = {
  {"create", STOCK, NULL},
  {"isyieldable", STOCK, NULL},
  {"running", STOCK, NULL},
  {"status", STOCK, NULL},
  {"yield", STOCK, NULL},
  {"resume", GUARDED, pss_lib_coresume},
  {"wrap", GUARDED, pss_lib_cowrap},
  {NULL, STOCK, NULL},
};

static const field os_fields[] = {
  {"clock", STOCK, NULL},
  {"date", WRAPPING, pss_lib_osdate},
  {"difftime", CHARGED, NULL},
  {"time", WRAPPING, pss_lib_ostime},
  {NULL, STOCK, NULL},
};

typedef struct library {
  const char *name;      /* the field of the environment; NULL for the base library's own */
  lua_CFunction open;    /* the stock library */
  int every_field;       /* every stock field first, charged where it can be */
  const field *fields;
} library;

/* The base library's fields are the environment's own; the others are tables in it. */
static const library libraries[] = {
  {NULL, luaopen_base, 0, base_fields},
  {LUA_STRLIBNAME, luaopen_string, 0, string_fields},
  {LUA_TABLIBNAME, luaopen_table, 0, table_fields},
  {LUA_MATHLIBNAME, luaopen_math, 1, math_fields},
  {LUA_UTF8LIBNAME, luaopen_utf8, 0, utf8_fields},
  {LUA_COLIBNAME, luaopen_coroutine, 0, coroutine_fields},
  {LUA_OSLIBNAME, luaopen_os, 0, os_fields},
};
#define LIBRARY_COUNT (sizeof libraries / sizeof libraries[0])

/* Sets field `f` of the table at `to` (absolute), made from the stock library at `stock`. */
static void set_field(lua_State *L, int stock, int to, const field *f) {
  switch (f->how) {
    case STOCK: lua_getfield(L, stock, f->name); break;
    case CHARGED:
    case CHARGED_SPAN:
      lua_getfield(L, stock, f->name);
      pss_push_charged(L, lua_tocfunction(L, -1), f->how == CHARGED_SPAN);
      lua_remove(L, -2);
      break;
    case GUARDED: lua_pushcfunction(L, f->f); break;
    case GUARDED_CHARGED: pss_push_charged(L, f->f, 0); break;
    case WRAPPING:
      lua_getfield(L, stock, f->name);
      lua_pushcclosure(L, f->f, 1);
      break;
  }
  lua_setfield(L, to, f->name);
}

/* Copies every field of the table at `stock` into the table at `to` (both absolute), C
 * functions without upvalues wrapped in a charge of their arguments. */
static void copy_every_field(lua_State *L, int stock, int to) {
  lua_pushnil(L);
  while (lua_next(L, stock) != 0) {
    lua_CFunction f = lua_tocfunction(L, -1);
    if (f != NULL && lua_getupvalue(L, -1, 1) == NULL) {
      lua_pop(L, 1);
      pss_push_charged(L, f, 0);
    } else if (f != NULL) {
      lua_pop(L, 1);
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, to);
  }
}

/* Empties the real globals (the stock base library opened into them): nothing needs them, and
 * no path may lead to them. */
static void empty_globals(lua_State *L) {
  lua_pushglobaltable(L);
  int g = lua_gettop(L);
  for (;;) {
    lua_pushnil(L);
    if (lua_next(L, g) == 0) break;
    lua_pop(L, 1);
    lua_pushnil(L);
    lua_rawset(L, g);
  }
  lua_pop(L, 1);
}

void pss_lib_open(lua_State *L) {
  luaL_checkstack(L, (int)LIBRARY_COUNT + 8, "setup");
  /* the stock libraries, opened into the registry's loaded table only */
  int first_stock = lua_gettop(L) + 1;
  for (size_t i = 0; i < LIBRARY_COUNT; i++)
    luaL_requiref(L, libraries[i].name ? libraries[i].name : LUA_GNAME, libraries[i].open, 0);
  lua_newtable(L);
  int env = lua_gettop(L);
  for (size_t i = 0; i < LIBRARY_COUNT; i++) {
    const library *lib = &libraries[i];
    int stock = first_stock + (int)i;
    int to = env;
    if (lib->name != NULL) {
      lua_newtable(L);
      to = lua_gettop(L);
    }
    if (lib->every_field) copy_every_field(L, stock, to);
    for (const field *f = lib->fields; f->name != NULL; f++) set_field(L, stock, to, f);
    if (lib->name != NULL) lua_setfield(L, env, lib->name);
  }
  empty_globals(L);
  /* The loaded-library table held the stock libraries: it now holds the template's, which is
   * where the auxiliary library finds the names of functions that C called, for errors ("bad
   * argument #2 to 'string.format'"), as stock Lua finds them. Host modules are added as they
   * are registered (pss_name_module). No script can reach the registry. */
  lua_createtable(L, 0, 8);
  lua_pushvalue(L, env);
  lua_setfield(L, -2, LUA_GNAME);
  for (size_t i = 0; i < LIBRARY_COUNT; i++) {
    if (libraries[i].name == NULL) continue;
    lua_getfield(L, env, libraries[i].name);
    lua_setfield(L, -2, libraries[i].name);
  }
  lua_setfield(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
  lua_replace(L, first_stock);
  lua_settop(L, first_stock);
}
