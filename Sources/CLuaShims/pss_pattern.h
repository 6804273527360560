/* The project's own Lua pattern matcher (Lua 5.4 manual, section 6.4.1).
 *
 * A pattern is compiled once into a flat program of nodes, one per pattern item, and a
 * backtracking engine runs that program with an explicit, fixed-size stack of choice points
 * instead of C recursion. Every step the engine takes (a single-character test, a node, a
 * backtrack, a start position) is counted and charged to the script's CPU budget through
 * pss_charge, so a hostile pattern ends in the CPU limit instead of hanging in C.
 *
 * Malformed patterns are reported as stock Lua reports them: lazily. Compilation stops at the
 * first malformed item and leaves an error node there; the error is raised only when a match
 * attempt reaches that node, which is when stock Lua would notice it. */
#ifndef PSS_PATTERN_H
#define PSS_PATTERN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "pss_internal.h"

/* Captures a pattern may have, as in stock Lua (LUA_MAXCAPTURES). */
#define PSS_PAT_MAXCAPTURES 32
/* Nesting limit, in stock Lua's terms: a match attempt may nest at most 199 choices and
 * capture boundaries inside its first level before it fails with "pattern too complex". */
#define PSS_PAT_MAXDEPTH 200
/* Local steps gathered before they are handed to pss_charge. */
#define PSS_PAT_CHARGE_BATCH 1024

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

/* Capture lengths that are not lengths. */
#define PSS_CAP_OPEN (-1)
#define PSS_CAP_POSITION (-2)

/* One match run over a subject. */
typedef struct pss_match {
  lua_State *L;
  const unsigned char *src;
  size_t len;
  const pss_pprog *prog;
  size_t steps;  /* steps counted but not yet handed to pss_charge */
  size_t cap_start[PSS_PAT_MAXCAPTURES];
  ptrdiff_t cap_len[PSS_PAT_MAXCAPTURES];  /* a length, PSS_CAP_OPEN or PSS_CAP_POSITION */
} pss_match;

/* Tries the program at subject offset `s`: returns the offset where the match ends, or -1.
 * Raises the errors of malformed patterns, "pattern too complex", and the CPU kill. */
ptrdiff_t pss_pat_exec(pss_match *m, size_t s);

/* Counts `steps` more steps, handing them to pss_charge in batches. */
static inline void pss_pat_charge(pss_match *m, size_t steps) {
  m->steps += steps;
  if (m->steps >= PSS_PAT_CHARGE_BATCH) {
    size_t n = m->steps;
    m->steps = 0;
    pss_charge(m->L, n);
  }
}

/* The first offset >= s at which a match can start: when the program starts with a literal
 * byte, the next occurrence of it (len + 1 when there is none), else `s` itself. */
static inline size_t pss_pat_next_start(pss_match *m, size_t s) {
  int lit = m->prog->first_lit;
  if (lit < 0) return s;
  if (s >= m->len) return m->len + 1;
  const unsigned char *hit = memchr(m->src + s, lit, m->len - s);
  size_t at = hit != NULL ? (size_t)(hit - m->src) : m->len + 1;
  pss_pat_charge(m, 1 + ((hit != NULL ? at : m->len) - s) / 16);
  return at;
}

/* Hands the steps still pending to pss_charge. */
static inline void pss_pat_charge_flush(pss_match *m) {
  if (m->steps > 0) {
    size_t n = m->steps;
    m->steps = 0;
    pss_charge(m->L, n);
  }
}

#endif
