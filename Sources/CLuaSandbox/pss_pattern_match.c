/* The backtracking engine that runs a compiled pattern (pss_pattern_compile.h) at one subject offset.
 *
 * The engine walks the nodes in order. A quantified item that could match in more than one
 * way leaves a choice point on a fixed-size stack and goes on with its first choice ('*' and
 * '+' the longest run, '-' the shortest, '?' one character); when a later node fails, the
 * newest choice point yields its next choice and the walk resumes after its item. There is
 * no C recursion, so the C stack used does not depend on the pattern or the subject.
 *
 * Captures need no undo on backtracking: since patterns have no alternation, every path
 * through the program runs the same capture nodes in the same order, and each node rewrites
 * what it owns before anything later reads it.
 *
 * Nesting is limited as stock Lua limits its recursion: entering a capture boundary, and
 * taking the first choice of a quantified item whose character matched, each nest one level
 * deeper for the rest of the path; at PSS_PAT_MAXDEPTH levels the match fails with "pattern
 * too complex". This bounds the choice stack too, since every choice point is one level.
 *
 * Steps: one per node reached, one per character tested, one per backtrack, and one per
 * eight bytes compared by a back reference. They go to pss_charge in batches. */
#include <ctype.h>
#include <string.h>
#include "pss_pattern_match.h"

typedef struct choice {
  uint32_t k;      /* the quantified node */
  uint32_t depth;  /* nesting level of the path after this choice */
  size_t base;     /* '*', '+': offset of the run; '-': offset the rest starts at; '?': offset
                      before the optional character */
  size_t count;    /* '*', '+': characters of the run in use */
} choice;

/* Whether byte c is in the character class named by lower-case letter cls. */
static int class_has(int cls, int c) {
  switch (cls) {
    case 'a': return isalpha(c) != 0;
    case 'c': return iscntrl(c) != 0;
    case 'd': return isdigit(c) != 0;
    case 'g': return isgraph(c) != 0;
    case 'l': return islower(c) != 0;
    case 'p': return ispunct(c) != 0;
    case 's': return isspace(c) != 0;
    case 'u': return isupper(c) != 0;
    case 'w': return isalnum(c) != 0;
    case 'x': return isxdigit(c) != 0;
    case 'z': return c == 0;
    default: return 0;
  }
}

/* Index of the lowest set bit of m (m != 0). */
static inline int lowest_bit(unsigned m) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctz(m);
#else
  int i = 0;
  while (!(m & 1u)) {
    m >>= 1;
    i++;
  }
  return i;
#endif
}

static inline int set_has(const pss_pset *set, unsigned c) {
  int in = (set->bits[c >> 5] >> (c & 31)) & 1;
  for (unsigned m = set->with; !in && m != 0; m &= m - 1)
    in = class_has(PSS_PAT_CLASSES[lowest_bit(m)], (int)c);
  for (unsigned m = set->without; !in && m != 0; m &= m - 1)
    in = !class_has(PSS_PAT_CLASSES[lowest_bit(m)], (int)c);
  return in != set->negate;
}

/* Whether the single-character node n matches byte c. */
static inline int single_has(const pss_pprog *pg, const pss_pnode *n, unsigned c) {
  switch (n->op) {
    case PSS_PN_LIT: return c == n->a;
    case PSS_PN_ANY: return 1;
    case PSS_PN_CLASS: return class_has(n->a, (int)c) != n->b;
    default: return set_has(&pg->sets[n->set], c);
  }
}

/* How many characters in a row from offset s node n matches. */
static size_t run_length(const pss_pprog *pg, const pss_pnode *n, const unsigned char *src,
                         size_t s, size_t len) {
  size_t i = s;
  switch (n->op) {
    case PSS_PN_ANY: return len - s;
    case PSS_PN_LIT:
      while (i < len && src[i] == n->a) i++;
      break;
    case PSS_PN_CLASS:
      while (i < len && class_has(n->a, src[i]) != n->b) i++;
      break;
    default: {
      const pss_pset *set = &pg->sets[n->set];
      while (i < len && set_has(set, src[i])) i++;
      break;
    }
  }
  return i - s;
}

static void raise_node_error(pss_match *m, const pss_pnode *n) {
  lua_State *L = m->L;
  switch (n->a) {
    case PSS_PE_ENDS_WITH_ESCAPE: luaL_error(L, "malformed pattern (ends with '%%')"); break;
    case PSS_PE_MISSING_BRACKET: luaL_error(L, "malformed pattern (missing ']')"); break;
    case PSS_PE_FRONTIER_BRACKET: luaL_error(L, "missing '[' after '%%f' in pattern"); break;
    case PSS_PE_BALANCE_ARGS:
      luaL_error(L, "malformed pattern (missing arguments to '%%b')");
      break;
    case PSS_PE_CAPTURE_INDEX: luaL_error(L, "invalid capture index %%%d", (int)n->b); break;
    case PSS_PE_PATTERN_CAPTURE: luaL_error(L, "invalid pattern capture"); break;
    default: luaL_error(L, "too many captures"); break;
  }
}

static void raise_too_complex(pss_match *m) { luaL_error(m->L, "pattern too complex"); }

/* The literal byte the node after k starts with, or -1 when it does not start with one that
 * must be present (used to skip choices that cannot lead anywhere). */
static int next_literal(const pss_pnode *nodes, uint32_t k) {
  const pss_pnode *n = &nodes[k + 1];
  if (n->op == PSS_PN_LIT && (n->quant == PSS_PQ_ONE || n->quant == PSS_PQ_PLUS)) return n->a;
  return -1;
}

ptrdiff_t pss_pat_exec(pss_match *m, size_t s) {
  const pss_pprog *pg = m->prog;
  const pss_pnode *nodes = pg->nodes;
  const unsigned char *src = m->src;
  const size_t len = m->len;
  choice stack[PSS_PAT_MAXDEPTH];
  int sp = 0;
  uint32_t depth = 0;
  uint32_t k = 0;
  size_t steps = 0;

  for (;;) {
    const pss_pnode *n = &nodes[k];
    if (++steps >= PSS_PAT_CHARGE_BATCH) {
      pss_charge(m->L, steps);
      steps = 0;
    }
    switch (n->op) {
      case PSS_PN_END:
        m->steps += steps;
        return (ptrdiff_t)s;

      case PSS_PN_EOS:
        if (s != len) goto fail;
        k++;
        continue;

      case PSS_PN_OPEN:
        if (++depth >= PSS_PAT_MAXDEPTH) raise_too_complex(m);
        m->cap_start[n->a] = s;
        m->cap_len[n->a] = n->b ? PSS_CAP_POSITION : PSS_CAP_OPEN;
        k++;
        continue;

      case PSS_PN_CLOSE:
        if (++depth >= PSS_PAT_MAXDEPTH) raise_too_complex(m);
        m->cap_len[n->a] = (ptrdiff_t)(s - m->cap_start[n->a]);
        k++;
        continue;

      case PSS_PN_BALANCE: {
        /* %bxy: x here, then the shortest text where the y's catch up with the x's. */
        if (s >= len || src[s] != n->a) goto fail;
        size_t i = s + 1, open = 1;
        while (i < len) {
          unsigned c = src[i++];
          if (c == n->b) {
            if (--open == 0) break;
          } else if (c == n->a) {
            open++;
          }
        }
        steps += i - s;
        if (open != 0) goto fail;
        s = i;
        k++;
        continue;
      }

      case PSS_PN_FRONTIER: {
        /* The subject's ends count as the byte '\0'. */
        const pss_pset *set = &pg->sets[n->set];
        unsigned before = s > 0 ? src[s - 1] : 0;
        unsigned after = s < len ? src[s] : 0;
        if (set_has(set, before) || !set_has(set, after)) goto fail;
        k++;
        continue;
      }

      case PSS_PN_BACKREF: {
        /* A position capture has no text, so a reference to one never matches. */
        ptrdiff_t l = m->cap_len[n->a];
        if (l < 0 || (size_t)l > len - s) goto fail;
        steps += (size_t)l / 8;
        if (memcmp(src + m->cap_start[n->a], src + s, (size_t)l) != 0) goto fail;
        s += (size_t)l;
        k++;
        continue;
      }

      case PSS_PN_ERROR:
        m->steps += steps;
        raise_node_error(m, n);
        return -1;

      default: {
        /* A single character class with its quantifier. */
        int hit = s < len && single_has(pg, n, src[s]);
        switch (n->quant) {
          case PSS_PQ_ONE:
            if (!hit) goto fail;
            s++;
            k++;
            continue;
          case PSS_PQ_OPT:
            if (hit) {
              stack[sp].k = k;
              stack[sp].depth = depth;  /* skipping the character stays at this level */
              stack[sp].base = s;
              stack[sp].count = 0;
              sp++;
              if (++depth >= PSS_PAT_MAXDEPTH) raise_too_complex(m);
              s++;
            }
            k++;
            continue;
          case PSS_PQ_LAZY:
            if (hit) {
              if (++depth >= PSS_PAT_MAXDEPTH) raise_too_complex(m);
              stack[sp].k = k;
              stack[sp].depth = depth;
              stack[sp].base = s;
              stack[sp].count = 0;
              sp++;
            }
            k++;
            continue;
          default: {  /* '*' and '+' */
            if (!hit) {
              if (n->quant == PSS_PQ_PLUS) goto fail;
              k++;
              continue;
            }
            size_t base = n->quant == PSS_PQ_PLUS ? s + 1 : s;
            size_t count = run_length(pg, n, src, base, len);
            steps += count;
            if (++depth >= PSS_PAT_MAXDEPTH) raise_too_complex(m);
            stack[sp].k = k;
            stack[sp].depth = depth;
            stack[sp].base = base;
            stack[sp].count = count;
            sp++;
            s = base + count;
            k++;
            continue;
          }
        }
      }
    }

  fail:
    /* Backtrack: the newest choice point that has a choice left gives it; spent ones go. */
    for (;;) {
      steps++;
      if (sp == 0) {
        m->steps += steps;
        return -1;
      }
      choice *c = &stack[sp - 1];
      const pss_pnode *cn = &nodes[c->k];
      /* When the rest of the pattern starts with a literal byte, a choice that would start
       * the rest elsewhere is skipped here instead of being tried. */
      int lit = next_literal(nodes, c->k);
      int spent = 0;
      if (cn->quant == PSS_PQ_OPT) {
        /* the other choice: without the character, at the level before it */
        sp--;
        s = c->base;
      } else if (cn->quant == PSS_PQ_LAZY) {
        /* one character more, if the item matches it */
        for (;;) {
          if (c->base >= len || !single_has(pg, cn, src[c->base])) {
            spent = 1;
            break;
          }
          c->base++;
          if (++steps >= PSS_PAT_CHARGE_BATCH) {  /* a skip can cross the whole subject */
            pss_charge(m->L, steps);
            steps = 0;
          }
          if (lit < 0 || (c->base < len && src[c->base] == (unsigned)lit)) break;
        }
        s = c->base;
      } else {
        /* '*', '+': one character less */
        if (c->count == 0) {
          spent = 1;
        } else {
          c->count--;
          while (lit >= 0 && !(c->base + c->count < len && src[c->base + c->count] == (unsigned)lit)) {
            if (c->count == 0) {
              spent = 1;
              break;
            }
            c->count--;
            if (++steps >= PSS_PAT_CHARGE_BATCH) {
              pss_charge(m->L, steps);
              steps = 0;
            }
          }
        }
        s = c->base + c->count;
      }
      if (spent) {
        sp--;
        continue;
      }
      if (steps >= PSS_PAT_CHARGE_BATCH) {
        pss_charge(m->L, steps);
        steps = 0;
      }
      depth = c->depth;  /* c stays readable after an OPT choice is popped */
      k = c->k + 1;
      break;
    }
  }
}
