/* The string metatable (pss_string_metatable.c): shared by every request's strings, locked,
 * and pointed at the string table of the environment a run is in, so that what a script adds
 * to `string` is a method of its strings in that run only. */
#ifndef PSS_STRING_METATABLE_H
#define PSS_STRING_METATABLE_H
#include "pss_context.h"

/* Makes the string metatable: the stock arithmetic ("10" + 1), charged; __index a copy of the
 * table at `strings` (the template's string library) until a run enters an environment;
 * locked. The state's set-up calls it. */
void pss_string_metatable_open(lua_State *L, int strings);
/* Makes the environment at `env` the one strings' methods come from: its string table (what it
 * gave as `string`, whatever the script assigns to the global after), made on the run's first
 * method of a string, or on getmetatable(""), when the environment has not given it yet. Every
 * entry point that runs script code calls it first. */
void pss_string_metatable_enter(lua_State *L, int env);
/* Pushes what getmetatable("") is to the running environment: a view of the string metatable
 * with its methods (the run's `string`) and its arithmetic, one per string table, so that every
 * call returns the same table. */
void pss_string_metatable_push_view(lua_State *L);

#endif
