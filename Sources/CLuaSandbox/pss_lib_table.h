/* table.move, table.concat, table.insert and table.remove, charged (pss_lib_table.c). */
#ifndef PSS_LIB_TABLE_H
#define PSS_LIB_TABLE_H
#include "pss_context.h"

int pss_lib_tmove(lua_State *L);
int pss_lib_tconcat(lua_State *L);
int pss_lib_tinsert(lua_State *L);
int pss_lib_tremove(lua_State *L);

#endif
