/* The guarded replacements of standard library functions. */
#ifndef PSS_LIB_H
#define PSS_LIB_H
#include "pss_internal.h"

/* Pushes stock function `f` wrapped in a charge of the work its arguments make: the lengths
 * of its strings and tables, its argument count, and with `span` the span between its integer
 * arguments 2 and 3 (pss_lib_charged.c). `f` must use no upvalues. */
void pss_push_charged(lua_State *L, lua_CFunction f, int span);
/* base */
int pss_lib_pcall(lua_State *L);
int pss_lib_xpcall(lua_State *L);
/* setmetatable and rawset that keep a metatable's mode what it was at setmetatable, and
 * getmetatable of a table, which sees through the host-owned metatables they install
 * (pss_lib_metatable.c) */
int pss_lib_setmetatable(lua_State *L);
int pss_lib_rawset(lua_State *L);
int pss_table_getmetatable(lua_State *L);
/* rawget, rawlen and next that see a lazy library table as its copy, and pairs, whose
 * iterator is that next (pss_lazy_library.c) */
int pss_lib_rawget(lua_State *L);
int pss_lib_rawlen(lua_State *L);
int pss_lib_next(lua_State *L);
int pss_lib_pairs(lua_State *L);
/* getmetatable: for a string, the run's view of the string metatable (pss_state.c) */
int pss_lib_getmetatable(lua_State *L);
int pss_lib_load(lua_State *L);
/* math: a generator per environment (pss_lib_math.c) */
int pss_lib_random(lua_State *L);
int pss_lib_randomseed(lua_State *L);
/* coroutine */
int pss_lib_coresume(lua_State *L);
int pss_lib_cowrap(lua_State *L);
/* string */
int pss_lib_strrep(lua_State *L);
/* os (upvalue: the stock os.date) */
int pss_lib_osdate(lua_State *L);
/* os (upvalue: the stock os.time, run in this frame) */
int pss_lib_ostime(lua_State *L);
/* table */
int pss_lib_tmove(lua_State *L);
int pss_lib_tconcat(lua_State *L);
int pss_lib_tinsert(lua_State *L);
int pss_lib_tremove(lua_State *L);
/* patterns (pss_pattern.c): the project's own matcher, which charges its steps */
int pss_str_find(lua_State *L);
int pss_str_match(lua_State *L);
int pss_str_gmatch(lua_State *L);
int pss_str_gsub(lua_State *L);

#endif
