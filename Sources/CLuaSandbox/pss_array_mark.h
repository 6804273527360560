/* The JSON array mark (pss_array_mark.c): a table that came from a JSON array stays one when it
 * is empty, where a Lua table cannot tell [] from {}. */
#ifndef PSS_ARRAY_MARK_H
#define PSS_ARRAY_MARK_H
#include "pss_context.h"

/* Makes the state's set of marked tables (weak keys); the state's set-up calls it. */
void pss_array_mark_open(lua_State *L);
/* Whether the table at `idx` (absolute) is marked as a JSON array (for empty tables). */
int pss_marked_array(lua_State *L, int idx);
/* Marks the table on top of the stack as a JSON array (so that it encodes back as []). */
void pss_mark_array(lua_State *L);

#endif
