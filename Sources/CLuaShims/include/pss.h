#ifndef PSS_H
#define PSS_H
#include <lua.h>
#endif
