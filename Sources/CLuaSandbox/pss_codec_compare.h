/* Telling whether a Lua value still is what an encoding of it says, without encoding it
 * (pss_codec_compare.c). */
#ifndef PSS_CODEC_COMPARE_H
#define PSS_CODEC_COMPARE_H
#include "pss_context.h"

/* Whether the value at `idx` is the value the encoding `data` (length `len`, one value)
 * decodes to: the same types, numbers, strings and tables, read as pss_encode_value reads
 * them. Conservative: a function, host object or anything else a decoded value cannot be
 * counts as different, as does a malformed encoding. */
int pss_same_as_encoded(lua_State *L, int idx, const unsigned char *data, size_t len);

#endif
