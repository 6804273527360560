/* os.date and os.time, guarded (pss_lib_os.c). */
#ifndef PSS_LIB_OS_H
#define PSS_LIB_OS_H
#include "pss_context.h"

/* upvalue: the stock os.date */
int pss_lib_osdate(lua_State *L);
/* upvalue: the stock os.time, run in this frame */
int pss_lib_ostime(lua_State *L);

#endif
