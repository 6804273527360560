/* Pattern compiler: turns a Lua pattern into the node program that pss_pattern_match.c runs.
 *
 * Items, from the manual: a single character class, optionally followed by '*', '+', '-' or
 * '?'; %1-%9 (a back reference); %bxy; %f[set]; '(' and ')' (captures, '()' a position
 * capture); '$' when it is the pattern's last character. Capture numbering, and which
 * captures are open at each item, do not depend on the subject (patterns have no
 * alternation), so capture errors are found here, and left as error nodes where the matcher
 * would meet them. */
#include <ctype.h>
#include <string.h>
#include "pss_pattern_compile.h"

/* Output of the compiler; counts only while prog->nodes is NULL. */
typedef struct emitter {
  pss_pprog *prog;
  int open[PSS_PAT_MAXCAPTURES];  /* captures opened but not closed, innermost last */
  int nopen;
  int failed;                     /* an error node was emitted */
} emitter;

static pss_pnode *emit(emitter *em, int op) {
  pss_pprog *pg = em->prog;
  pss_pnode *n = NULL;
  if (pg->nodes != NULL) {
    n = &pg->nodes[pg->nnodes];
    memset(n, 0, sizeof *n);
    n->op = (uint8_t)op;
  }
  pg->nnodes++;
  return n;
}

/* Emits an error node; compilation stops after it (nothing past it can be reached). */
static void emit_error(emitter *em, int code, int arg) {
  pss_pnode *n = emit(em, PSS_PN_ERROR);
  em->failed = 1;
  if (n != NULL) {
    n->a = (uint8_t)code;
    n->b = (uint8_t)arg;
  }
}

/* The lower-case letter of a character class (%a, %D, ...), or 0 when `c` names none. */
static int class_letter(int c) {
  int lower = tolower(c);
  switch (lower) {
    case 'a': case 'c': case 'd': case 'g': case 'l': case 'p': case 's': case 'u': case 'w':
    case 'x': case 'z':
      return lower;
    default:
      return 0;
  }
}

static void set_byte(pss_pset *set, unsigned c) { set->bits[c >> 5] |= (uint32_t)1 << (c & 31); }

/* Adds %c (the byte after a '%' inside a set): a class, its complement, or the byte itself. */
static void set_escape(pss_pset *set, unsigned char c) {
  int letter = class_letter(c);
  if (letter == 0) {
    set_byte(set, c);
    return;
  }
  uint16_t bit = (uint16_t)(1u << (strchr(PSS_PAT_CLASSES, letter) - PSS_PAT_CLASSES));
  if (isupper(c)) set->without |= bit;
  else set->with |= bit;
}

/* Scans the set that starts at p[i] == '[' (as part of %f[set] too). Returns the index just
 * past its closing ']', or 0 when the set is not closed. When `set` is not NULL, fills it.
 *
 * The closing ']' is the first ']' after the first character of the body (so "[]]" and
 * "[^]]" hold ']'), skipping characters escaped with '%'. Inside the body, "x-y" is a range
 * when both ends are in the body; "%x" is a class or the byte x. As in stock Lua, a range's
 * upper end is taken as it is, so in the meaningless "[a-%%]" the second '%' escapes the
 * closing ']' (the manual leaves such sets undefined; this keeps stock's answer). */
static size_t scan_set(const char *p, size_t lp, size_t i, pss_pset *set) {
  size_t k = i + 1;
  int negate = 0;
  if (k < lp && p[k] == '^') {
    negate = 1;
    k++;
  }
  size_t body = k;
  do {
    if (k >= lp) return 0;
    if (p[k++] == '%' && k < lp) k++;
  } while (k >= lp || p[k] != ']');
  size_t end = k;  /* p[end] == ']' */
  if (set != NULL) {
    memset(set, 0, sizeof *set);
    set->negate = (uint8_t)negate;
    size_t j = body;
    while (j < end) {
      unsigned char c = (unsigned char)p[j];
      if (c == '%') {
        set_escape(set, (unsigned char)p[j + 1]);  /* j + 1 <= end: at worst the ']' */
        j += 2;
      } else if (j + 2 < end && p[j + 1] == '-') {
        unsigned char hi = (unsigned char)p[j + 2];
        for (unsigned x = c; x <= hi; x++) set_byte(set, x);
        j += 3;
      } else {
        set_byte(set, c);
        j++;
      }
    }
  }
  return end + 1;
}

/* Compiles the well-formed set at p[i] into the program's next set slot; returns its index. */
static uint32_t emit_set(emitter *em, const char *p, size_t lp, size_t i) {
  pss_pprog *pg = em->prog;
  uint32_t index = pg->nsets++;
  if (pg->nodes != NULL) scan_set(p, lp, i, &pg->sets[index]);
  return index;
}

/* Compiles the single character class at p[i] and its quantifier. Returns the index of the
 * next item, or 0 after emitting an error node. */
static size_t single(emitter *em, const char *p, size_t lp, size_t i) {
  unsigned char c = (unsigned char)p[i];
  size_t j;
  int op, a = 0, b = 0;
  uint32_t set = 0;
  if (c == '%') {
    if (i + 1 >= lp) {
      emit_error(em, PSS_PE_ENDS_WITH_ESCAPE, 0);
      return 0;
    }
    unsigned char e = (unsigned char)p[i + 1];
    int letter = class_letter(e);
    if (letter != 0) {
      op = PSS_PN_CLASS;
      a = letter;
      b = isupper(e) != 0;
    } else {
      op = PSS_PN_LIT;
      a = e;
    }
    j = i + 2;
  } else if (c == '[') {
    j = scan_set(p, lp, i, NULL);
    if (j == 0) {
      emit_error(em, PSS_PE_MISSING_BRACKET, 0);
      return 0;
    }
    set = emit_set(em, p, lp, i);
    op = PSS_PN_SET;
  } else if (c == '.') {
    op = PSS_PN_ANY;
    j = i + 1;
  } else {
    op = PSS_PN_LIT;
    a = c;
    j = i + 1;
  }
  int quant = PSS_PQ_ONE;
  if (j < lp) {
    switch (p[j]) {
      case '*': quant = PSS_PQ_STAR; j++; break;
      case '+': quant = PSS_PQ_PLUS; j++; break;
      case '-': quant = PSS_PQ_LAZY; j++; break;
      case '?': quant = PSS_PQ_OPT; j++; break;
      default: break;
    }
  }
  pss_pnode *n = emit(em, op);
  if (n != NULL) {
    n->quant = (uint8_t)quant;
    n->a = (uint8_t)a;
    n->b = (uint8_t)b;
    n->set = set;
  }
  return j;
}

void pss_pat_compile(const char *p, size_t lp, pss_pprog *prog) {
  emitter em;
  em.prog = prog;
  em.nopen = 0;
  em.failed = 0;
  prog->nnodes = 0;
  prog->nsets = 0;
  prog->ncap = 0;
  size_t i = 0;
  while (i < lp) {
    unsigned char c = (unsigned char)p[i];
    if (c == '(') {
      if (prog->ncap >= PSS_PAT_MAXCAPTURES) {
        emit_error(&em, PSS_PE_TOO_MANY_CAPTURES, 0);
        break;
      }
      int position = i + 1 < lp && p[i + 1] == ')';
      pss_pnode *n = emit(&em, PSS_PN_OPEN);
      if (n != NULL) {
        n->a = (uint8_t)prog->ncap;
        n->b = (uint8_t)position;
      }
      if (!position) em.open[em.nopen++] = prog->ncap;
      prog->ncap++;
      i += position ? 2 : 1;
    } else if (c == ')') {
      if (em.nopen == 0) {
        emit_error(&em, PSS_PE_PATTERN_CAPTURE, 0);
        break;
      }
      pss_pnode *n = emit(&em, PSS_PN_CLOSE);
      em.nopen--;
      if (n != NULL) n->a = (uint8_t)em.open[em.nopen];
      i++;
    } else if (c == '$' && i + 1 == lp) {
      emit(&em, PSS_PN_EOS);
      i++;
    } else if (c == '%' && i + 1 < lp && p[i + 1] == 'b') {
      if (i + 3 >= lp) {
        emit_error(&em, PSS_PE_BALANCE_ARGS, 0);
        break;
      }
      pss_pnode *n = emit(&em, PSS_PN_BALANCE);
      if (n != NULL) {
        n->a = (uint8_t)p[i + 2];
        n->b = (uint8_t)p[i + 3];
      }
      i += 4;
    } else if (c == '%' && i + 1 < lp && p[i + 1] == 'f') {
      i += 2;
      if (i >= lp || p[i] != '[') {
        emit_error(&em, PSS_PE_FRONTIER_BRACKET, 0);
        break;
      }
      size_t next = scan_set(p, lp, i, NULL);
      if (next == 0) {
        emit_error(&em, PSS_PE_MISSING_BRACKET, 0);
        break;
      }
      uint32_t set = emit_set(&em, p, lp, i);
      pss_pnode *n = emit(&em, PSS_PN_FRONTIER);
      if (n != NULL) n->set = set;
      i = next;
    } else if (c == '%' && i + 1 < lp && p[i + 1] >= '0' && p[i + 1] <= '9') {
      /* A back reference: valid only to a capture that is already closed (or a position
       * capture, which never matches as text). %0 is never valid in a pattern. */
      int index = p[i + 1] - '1';
      int valid = index >= 0 && index < prog->ncap;
      for (int k = 0; valid && k < em.nopen; k++)
        if (em.open[k] == index) valid = 0;
      if (!valid) {
        emit_error(&em, PSS_PE_CAPTURE_INDEX, index + 1);
        break;
      }
      pss_pnode *n = emit(&em, PSS_PN_BACKREF);
      if (n != NULL) n->a = (uint8_t)index;
      i += 2;
    } else {
      size_t next = single(&em, p, lp, i);
      if (next == 0) break;
      i = next;
    }
  }
  /* An error node is where a match stops; otherwise the end node is. */
  if (!em.failed) emit(&em, PSS_PN_END);
  prog->first_lit = -1;
  if (prog->nodes != NULL && prog->nodes[0].op == PSS_PN_LIT &&
      (prog->nodes[0].quant == PSS_PQ_ONE || prog->nodes[0].quant == PSS_PQ_PLUS))
    prog->first_lit = prog->nodes[0].a;
}
