/* The backtracking engine that runs a compiled pattern (pss_pattern_match.c), and the charge of
 * its steps. */
#ifndef PSS_PATTERN_MATCH_H
#define PSS_PATTERN_MATCH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "pss_charge.h"
#include "pss_pattern_compile.h"

/* Nesting limit, in stock Lua's terms: a match attempt may nest at most 199 choices and
 * capture boundaries inside its first level before it fails with "pattern too complex". */
#define PSS_PAT_MAXDEPTH 200
/* Local steps gathered before they are handed to pss_charge. */
#define PSS_PAT_CHARGE_BATCH 1024

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
