/* The pattern compiler (pss_pattern_compile.c): a Lua pattern into a flat program of nodes,
 * one per pattern item, that pss_pattern_match.h runs. */
#ifndef PSS_PATTERN_COMPILE_H
#define PSS_PATTERN_COMPILE_H

#include <stddef.h>
#include <stdint.h>

/* Captures a pattern may have, as in stock Lua (LUA_MAXCAPTURES). */
#define PSS_PAT_MAXCAPTURES 32

/* Node kinds. The first four match one character; the quantifier says how many times. */
enum {
  PSS_PN_LIT,       /* the byte `a` */
  PSS_PN_ANY,       /* '.' */
  PSS_PN_CLASS,     /* %a, %d, ...: class letter `a`, complemented when `b` is set */
  PSS_PN_SET,       /* [set]: sets[set] */
  PSS_PN_OPEN,      /* '(': opens capture `a`; a position capture '()' when `b` is set */
  PSS_PN_CLOSE,     /* ')': closes capture `a` */
  PSS_PN_BALANCE,   /* %bxy with x = `a`, y = `b` */
  PSS_PN_FRONTIER,  /* %f[set]: sets[set] */
  PSS_PN_BACKREF,   /* %1-%9: capture `a` again */
  PSS_PN_EOS,       /* '$' as the pattern's last character */
  PSS_PN_ERROR,     /* a malformed item: error `a` (argument `b`) when reached */
  PSS_PN_END,       /* the match succeeded */
};

/* Quantifiers of the single-character nodes. */
enum { PSS_PQ_ONE, PSS_PQ_STAR, PSS_PQ_PLUS, PSS_PQ_LAZY, PSS_PQ_OPT };

/* Errors an error node raises. */
enum {
  PSS_PE_ENDS_WITH_ESCAPE,  /* malformed pattern (ends with '%') */
  PSS_PE_MISSING_BRACKET,   /* malformed pattern (missing ']') */
  PSS_PE_FRONTIER_BRACKET,  /* missing '[' after '%f' in pattern */
  PSS_PE_BALANCE_ARGS,      /* malformed pattern (missing arguments to '%b') */
  PSS_PE_CAPTURE_INDEX,     /* invalid capture index %N (N in `b`) */
  PSS_PE_PATTERN_CAPTURE,   /* invalid pattern capture */
  PSS_PE_TOO_MANY_CAPTURES, /* too many captures */
};

typedef struct pss_pnode {
  uint8_t op;     /* PSS_PN_* */
  uint8_t quant;  /* PSS_PQ_*, for the single-character nodes */
  uint8_t a, b;   /* operands, by kind (see above) */
  uint32_t set;   /* index into the program's sets */
} pss_pnode;

/* A character set: explicit bytes in a bitmap, plus character classes (by bit, in the order
 * of PSS_PAT_CLASSES) that are in the set (`with`) or whose complements are (`without`).
 * Classes are tested with <ctype.h> when matching, as stock Lua does, so the current C
 * locale decides them. */
typedef struct pss_pset {
  uint32_t bits[8];
  uint16_t with, without;
  uint8_t negate;  /* [^...] */
} pss_pset;

/* The class letters: the manual's ten, and 'z' (the byte 0), which Lua 5.1 documented and
 * Lua 5.4 still accepts. */
#define PSS_PAT_CLASSES "acdglpsuwxz"

typedef struct pss_pprog {
  pss_pnode *nodes;  /* NULL while measuring */
  pss_pset *sets;
  uint32_t nnodes, nsets;
  int ncap;          /* captures the pattern opens before any malformed item */
  int first_lit;     /* the byte every match starts with (the first node is a literal that
                        must match), or -1 */
} pss_pprog;

/* Compiles the pattern p[0..lp) (anchor already removed by the caller when it has one).
 * With prog->nodes == NULL it only counts the nodes and sets needed (nnodes, nsets);
 * otherwise it fills arrays of at least those sizes. Never raises. */
void pss_pat_compile(const char *p, size_t lp, pss_pprog *prog);

#endif
