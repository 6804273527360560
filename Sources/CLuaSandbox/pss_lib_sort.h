/* table.sort, charged (pss_lib_sort.c). */
#ifndef PSS_LIB_SORT_H
#define PSS_LIB_SORT_H
#include "pss_context.h"

/* table.sort(t [, comp]) that charges the comparisons it makes in C; upvalue: the stock sort. */
int pss_lib_tsort(lua_State *L);

#endif
