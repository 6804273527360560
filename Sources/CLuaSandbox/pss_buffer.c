/* Growable byte buffers, outside the Lua allocator (pss_buffer.h). */
#include <stdlib.h>
#include <string.h>
#include "pss_buffer.h"

void pss_buffer_init(pss_buffer *b) {
  b->data = NULL;
  b->length = 0;
  b->capacity = 0;
}

void pss_buffer_free(pss_buffer *b) {
  free(b->data);
  pss_buffer_init(b);
}

int pss_buffer_append(pss_buffer *b, const void *bytes, size_t n) {
  if (n == 0) return 1;
  if (b->length + n < b->length) return 0;
  if (b->length + n > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 256;
    while (capacity < b->length + n) {
      if (capacity > SIZE_MAX / 2) return 0;
      capacity *= 2;
    }
    unsigned char *data = realloc(b->data, capacity);
    if (data == NULL) return 0;
    b->data = data;
    b->capacity = capacity;
  }
  memcpy(b->data + b->length, bytes, n);
  b->length += n;
  return 1;
}
