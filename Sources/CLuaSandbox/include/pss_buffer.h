/* Growable byte buffers, outside the Lua allocator (pss_buffer.c): how values and messages
 * cross between the engine and its host. */
#ifndef PSS_BUFFER_H
#define PSS_BUFFER_H

#include <stddef.h>
#include "pss_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A growable byte buffer (malloc'd). */
struct pss_buffer {
  unsigned char *data;
  size_t length, capacity;
};

void pss_buffer_init(pss_buffer *b);
void pss_buffer_free(pss_buffer *b);
/* Appends bytes; returns 0 when memory ran out. */
int pss_buffer_append(pss_buffer *b, const void *bytes, size_t n);

#ifdef __cplusplus
}
#endif
#endif
