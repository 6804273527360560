/* Metatables whose mode cannot change (pss_metatable.c): the rules setmetatable and rawset
 * keep, with host-owned copies of the script's metatables. */
#ifndef PSS_METATABLE_H
#define PSS_METATABLE_H
#include "pss_context.h"

/* What setmetatable(t, mt) does once its arguments are checked (stack: t, mt or nil; lazy
 * tables filled): refuses __gc, weak keys and a protected metatable; guards a live metatable
 * or gives t a host-owned copy. Leaves t alone on the stack and returns 1. */
int pss_metatable_set(lua_State *L);
/* What rawset(t, k, v) does once its arguments are checked (stack: t, k, v; t filled when
 * lazy): refuses __mode on a table in use as a metatable; after the set, a metamethod field
 * is followed by the host-owned copies standing for t. Leaves t alone on the stack and returns
 * 1. */
int pss_metatable_rawset(lua_State *L);

#endif
