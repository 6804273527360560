/* The reader every compilation goes through: the parser gets the source in small pieces, and
 * each piece is charged to the running script's CPU budget with a look at the clocks. The
 * parser has cases whose work grows faster than the source (`1 or 1 or ...` concatenates jump
 * lists, quadratic in the chain's length); between two pieces it can do only a piece's worth
 * of such work, so the budget holds while it compiles. */
#ifndef PSS_READER_H
#define PSS_READER_H
#include "pss_context.h"

/* Source bytes the parser gets at a time. */
#define PSS_LOAD_PIECE 256

/* What the reader hands out: the rest of a string, and when `function_index` is not 0, the
 * stack index of a reader function to call for more when it runs out (its last result is
 * kept alive in `slot`). */
typedef struct pss_reader {
  const char *s;
  size_t left;
  int function_index;
  int slot;
  const char *mode;  /* `load`'s mode, checked against the first piece; NULL: no check */
  int started;       /* the first piece was handed out */
} pss_reader;

/* A lua_Reader over a pss_reader. Raises the kill when a limit tripped (lua_load then fails,
 * and the caller's pss_check_trip raises it again). */
const char *pss_read_piece(lua_State *L, void *ud, size_t *size);

#endif
