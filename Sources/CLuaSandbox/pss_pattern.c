/* string.find, string.match, string.gmatch and string.gsub over the project's own matcher
 * (pss_pattern_match.h), with the argument conventions of the Lua 5.4 manual (section 6.4). All the
 * work they do, matching and copying alike, is charged to the script's CPU budget. */
#define _GNU_SOURCE /* memmem */
#include <string.h>
#include "pss_alloc.h"
#include "pss_charge.h"
#include "pss_pattern.h"
#include "pss_pattern_compile.h"
#include "pss_pattern_match.h"

/* Compiled programs up to this size live in the calling function's frame, in an array sized
 * to the program; larger ones go in a userdata. Sizing the array to the pattern keeps gsub's
 * frame small, which matters because one gsub frame stays on the C stack for each level of
 * gsub callbacks nested inside each other. */
#define PROGRAM_IN_FRAME_MAX 1024

/* Sizes the program of pattern p: sets prog's node and set counts to at least what p needs
 * and returns the bytes its arrays take. A short pattern gets an upper bound at once (a node
 * per character and the end node, a set per '['), which saves a measuring pass when the
 * bound fits in the frame; a longer one is measured by compiling it without output.
 * Charges the pattern's length. */
static size_t program_size(lua_State *L, pss_pprog *prog, const char *p, size_t lp) {
  pss_charge(L, 1 + lp);
  prog->nodes = NULL;
  prog->sets = NULL;
  if (lp < PROGRAM_IN_FRAME_MAX / sizeof(pss_pnode)) {
    size_t sets = 0;
    for (size_t i = 0; i < lp; i++) sets += p[i] == '[';
    size_t bound = sets * sizeof(pss_pset) + (lp + 1) * sizeof(pss_pnode);
    if (bound <= PROGRAM_IN_FRAME_MAX) {
      prog->nsets = (uint32_t)sets;
      prog->nnodes = (uint32_t)(lp + 1);
      return bound;
    }
  }
  pss_pat_compile(p, lp, prog);
  return (size_t)prog->nsets * sizeof(pss_pset) + (size_t)prog->nnodes * sizeof(pss_pnode);
}

/* Compiles p into prog, in `mem` (at least `need` bytes, aligned for uint32_t), or, when mem
 * is NULL, in a new userdata left on the stack, which keeps it alive for the call. */
static void program_build(lua_State *L, pss_pprog *prog, uint32_t *mem, size_t need,
                          const char *p, size_t lp) {
  if (mem == NULL) {
    pss_reserve(L, need);
    mem = lua_newuserdatauv(L, need, 0);
  }
  unsigned char *bytes = (unsigned char *)mem;
  prog->sets = (pss_pset *)bytes;
  prog->nodes = (pss_pnode *)(bytes + (size_t)prog->nsets * sizeof(pss_pset));
  pss_pat_compile(p, lp, prog);
  pss_charge(L, (size_t)prog->nsets * 32);  /* filling a set's bitmap: up to 256 bits */
}

/* Words of the in-frame array for a program of `need` bytes (1 when it goes elsewhere). */
#define FRAME_WORDS(need) \
  ((need) <= PROGRAM_IN_FRAME_MAX ? ((need) + sizeof(uint32_t) - 1) / sizeof(uint32_t) : 1)
#define FRAME_MEM(need, array) ((need) <= PROGRAM_IN_FRAME_MAX ? (array) : NULL)

static void match_init(pss_match *m, lua_State *L, const char *s, size_t ls,
                       const pss_pprog *prog) {
  m->L = L;
  m->src = (const unsigned char *)s;
  m->len = ls;
  m->prog = prog;
  m->steps = 0;
}

/* The 0-based offset where a search starts, from a 1-based `init` that may be negative
 * (counted from the end) or zero; it may lie past the end. */
static size_t start_offset(lua_Integer init, size_t len) {
  if (init > 0) return (size_t)init - 1;
  if (init == 0 || (size_t)0 - (lua_Unsigned)init > len) return 0;  /* before the start */
  return len - ((size_t)0 - (lua_Unsigned)init);
}

/* Whether pattern p has none of the characters that make it more than plain text. */
static int plain_text(lua_State *L, const char *p, size_t lp) {
  static const char specials[] = "^$*+?.([%-";
  pss_charge(L, 1 + lp / 16);
  for (size_t i = 0; i < lp; i++)
    if (p[i] != '\0' && strchr(specials, p[i]) != NULL) return 0;
  return 1;
}

/* Plain search of p in s from `init`: the offset of the first occurrence, or -1.
 *
 * Like a person scanning text: find the needle's first byte (memchr), compare the rest
 * (memcmp), move on. That is fast on ordinary text but quadratic on a subject like "aaa...a"
 * and a needle like "aa...ab", so the bytes handed to memcmp are counted, and once they
 * outgrow the bytes scanned by more than COMPARE_SLACK the rest of the subject is searched
 * with glibc's memmem, which is linear, in windows so that the work is charged as it goes. */
#define COMPARE_SLACK ((size_t)1 << 16)
/* Candidates (offsets holding the first byte) between two charges and checks. */
#define CANDIDATE_BATCH 64

static ptrdiff_t plain_find(lua_State *L, const char *s, size_t ls, const char *p, size_t lp,
                            size_t init) {
  if (lp == 0) return (ptrdiff_t)init;
  if (lp > ls - init) return -1;
  const size_t last = ls - lp;  /* the last offset where p fits */
  size_t at = init, charged_to = init, candidates = 0;
  while (at <= last) {
    const char *hit = memchr(s + at, (unsigned char)p[0], last - at + 1);
    if (hit == NULL) {
      pss_charge(L, 1 + (ls - charged_to) / 8 + (candidates % CANDIDATE_BATCH) * (1 + lp / 8));
      return -1;
    }
    if (memcmp(hit + 1, p + 1, lp - 1) == 0) {
      pss_charge(L, 1 + (size_t)(hit - s - charged_to) / 8 +
                        (candidates % CANDIDATE_BATCH) * (1 + lp / 8));
      return hit - s;
    }
    at = (size_t)(hit - s) + 1;
    if (++candidates % CANDIDATE_BATCH == 0) {
      /* charge the bytes scanned and compared since the last batch */
      pss_charge(L, (at - charged_to) / 8 + CANDIDATE_BATCH * (1 + lp / 8));
      charged_to = at;
      if (candidates * lp > at - init + COMPARE_SLACK) break;
    }
  }
  if (at > last) return -1;
  size_t window = (size_t)1 << 16;
  if (window < 4 * lp) window = 4 * lp;  /* bounds the overlap re-scanned per window */
  for (; at <= last; at += window) {
    size_t span = window + lp - 1;  /* every start in [at, at + window) */
    if (span > ls - at) span = ls - at;
    pss_charge(L, span);
    const char *hit = memmem(s + at, span, p, lp);
    if (hit != NULL) return hit - s;
    if (span == ls - at) break;
  }
  return -1;
}

/* ---- captures ---------------------------------------------------------------------------- */

/* Pushes capture i of the match s..e; without captures, i == 0 is the whole match. */
static void push_capture(pss_match *m, int i, size_t s, size_t e) {
  lua_State *L = m->L;
  if (i >= m->prog->ncap) {
    if (i != 0) luaL_error(L, "invalid capture index %%%d", i + 1);
    lua_pushlstring(L, (const char *)m->src + s, e - s);
    return;
  }
  ptrdiff_t l = m->cap_len[i];
  if (l == PSS_CAP_OPEN) luaL_error(L, "unfinished capture");
  if (l == PSS_CAP_POSITION) lua_pushinteger(L, (lua_Integer)m->cap_start[i] + 1);
  else lua_pushlstring(L, (const char *)m->src + m->cap_start[i], (size_t)l);
}

/* Pushes all captures; without captures the whole match when `whole`, else nothing. */
static int push_captures(pss_match *m, size_t s, size_t e, int whole) {
  int n = m->prog->ncap == 0 && whole ? 1 : m->prog->ncap;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) push_capture(m, i, s, e);
  return n;
}

/* ---- find and match ---------------------------------------------------------------------- */

static int find_or_match(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_offset(luaL_optinteger(L, 3, 1), ls);
  if (init > ls) {  /* starts after the end: nothing can match */
    luaL_pushfail(L);
    return 1;
  }
  if (find && (lua_toboolean(L, 4) || plain_text(L, p, lp))) {
    ptrdiff_t at = plain_find(L, s, ls, p, lp, init);
    if (at < 0) {
      luaL_pushfail(L);
      return 1;
    }
    lua_pushinteger(L, (lua_Integer)at + 1);
    lua_pushinteger(L, (lua_Integer)(at + lp));
    return 2;
  }
  int anchor = lp > 0 && p[0] == '^';
  if (anchor) {
    p++;
    lp--;
  }
  pss_pprog prog;
  size_t need = program_size(L, &prog, p, lp);
  uint32_t frame[FRAME_WORDS(need)];
  program_build(L, &prog, FRAME_MEM(need, frame), need, p, lp);
  pss_match m;
  match_init(&m, L, s, ls, &prog);
  size_t at = init;
  for (;;) {
    if (!anchor) {
      at = pss_pat_next_start(&m, at);
      if (at > ls) break;
    }
    pss_pat_charge(&m, 1);
    ptrdiff_t e = pss_pat_exec(&m, at);
    if (e >= 0) {
      int n;
      if (find) {
        lua_pushinteger(L, (lua_Integer)at + 1);
        lua_pushinteger(L, (lua_Integer)e);
        n = 2 + push_captures(&m, at, (size_t)e, 0);
      } else {
        n = push_captures(&m, at, (size_t)e, 1);
      }
      pss_pat_charge_flush(&m);
      return n;
    }
    if (anchor || at >= ls) break;
    at++;
  }
  pss_pat_charge_flush(&m);
  luaL_pushfail(L);
  return 1;
}

int pss_str_find(lua_State *L) { return find_or_match(L, 1); }
int pss_str_match(lua_State *L) { return find_or_match(L, 0); }

/* ---- gmatch ------------------------------------------------------------------------------ */

/* The iterator's state, a userdata whose tail holds the compiled pattern. */
typedef struct gmatch_state {
  size_t next;       /* where the next search starts (past the end when done) */
  ptrdiff_t last;    /* where the last match ended, or -1 */
  pss_pprog prog;
} gmatch_state;

/* Upvalues: 1 the subject, 2 the state. */
static int gmatch_step(lua_State *L) {
  size_t ls;
  const char *s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  gmatch_state *g = lua_touserdata(L, lua_upvalueindex(2));
  pss_match m;
  match_init(&m, L, s, ls, &g->prog);
  for (size_t at = g->next; at <= ls; at++) {
    at = pss_pat_next_start(&m, at);
    if (at > ls) break;
    pss_pat_charge(&m, 1);
    ptrdiff_t e = pss_pat_exec(&m, at);
    /* an empty match where the last match ended is not a new match (Lua 5.4) */
    if (e >= 0 && e != g->last) {
      g->next = (size_t)e;
      g->last = e;
      int n = push_captures(&m, at, (size_t)e, 1);
      pss_pat_charge_flush(&m);
      return n;
    }
  }
  g->next = ls + 1;
  pss_pat_charge_flush(&m);
  return 0;
}

int pss_str_gmatch(lua_State *L) {
  size_t ls, lp;
  luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_offset(luaL_optinteger(L, 3, 1), ls);
  if (init > ls) init = ls + 1;  /* past the end: no matches */
  lua_settop(L, 2);
  /* '^' is not an anchor here (Lua 5.4): it is compiled as the character it is. */
  pss_pprog prog;
  size_t need = program_size(L, &prog, p, lp);
  pss_reserve(L, sizeof(gmatch_state) + need);
  gmatch_state *g = lua_newuserdatauv(L, sizeof(gmatch_state) + need, 0);
  g->next = init;
  g->last = -1;
  g->prog = prog;
  program_build(L, &g->prog, (uint32_t *)(g + 1), need, p, lp);
  lua_pushvalue(L, 1);
  lua_insert(L, -2);
  lua_pushcclosure(L, gmatch_step, 2);
  return 1;
}

/* ---- gsub -------------------------------------------------------------------------------- */

/* Appends repl (a string) for the match s..e: %0 the match, %1-%9 captures, %% a '%'. */
static void add_string(pss_match *m, luaL_Buffer *b, const char *repl, size_t lr, size_t s,
                       size_t e) {
  lua_State *L = m->L;
  size_t i = 0;
  pss_pat_charge(m, 1 + lr / 16);
  while (i < lr) {
    const char *esc = memchr(repl + i, '%', lr - i);
    if (esc == NULL) {
      luaL_addlstring(b, repl + i, lr - i);
      return;
    }
    luaL_addlstring(b, repl + i, (size_t)(esc - (repl + i)));
    i = (size_t)(esc - repl) + 1;
    int d = i < lr ? (unsigned char)repl[i] : '\0';
    i++;
    if (d == '%') {
      luaL_addchar(b, '%');
    } else if (d == '0') {
      luaL_addlstring(b, (const char *)m->src + s, e - s);
      pss_pat_charge(m, (e - s) / 16);
    } else if (d >= '1' && d <= '9') {
      int c = d - '1';
      if (c < m->prog->ncap && m->cap_len[c] >= 0) {  /* a text capture: copy it */
        luaL_addlstring(b, (const char *)m->src + m->cap_start[c], (size_t)m->cap_len[c]);
        pss_pat_charge(m, (size_t)m->cap_len[c] / 16);
      } else {  /* a position, the whole match, or an error */
        push_capture(m, c, s, e);
        luaL_addvalue(b);
      }
    } else {
      luaL_error(L, "invalid use of '%%' in replacement string");
    }
  }
}

/* Appends the replacement for the match s..e: from the string, the table (indexed by the
 * first capture) or the function (called with the captures) at index 3. A false or nil
 * result keeps the match as it was. Returns whether it replaced the match (a string always
 * does, even with the same text). */
static int add_replacement(pss_match *m, luaL_Buffer *b, int type, const char *repl,
                            size_t lr, size_t s, size_t e) {
  lua_State *L = m->L;
  if (type == LUA_TSTRING || type == LUA_TNUMBER) {
    add_string(m, b, repl, lr, s, e);
    return 1;
  }
  if (type == LUA_TFUNCTION) {
    lua_pushvalue(L, 3);
    int n = push_captures(m, s, e, 1);
    pss_pat_charge_flush(m);
    lua_call(L, n, 1);
  } else {
    push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    luaL_addlstring(b, (const char *)m->src + s, e - s);
    return 0;
  }
  if (!lua_isstring(L, -1)) luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
}

int pss_str_gsub(lua_State *L) {
  size_t ls, lp, lr = 0;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  int type = lua_type(L, 3);
  lua_Integer max = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
  luaL_argexpected(L, type == LUA_TNUMBER || type == LUA_TSTRING || type == LUA_TFUNCTION ||
                          type == LUA_TTABLE,
                   3, "string/function/table");
  const char *repl = NULL;
  if (type == LUA_TSTRING || type == LUA_TNUMBER) repl = lua_tolstring(L, 3, &lr);
  int anchor = lp > 0 && p[0] == '^';
  if (anchor) {
    p++;
    lp--;
  }
  pss_pprog prog;
  size_t need = program_size(L, &prog, p, lp);
  uint32_t frame[FRAME_WORDS(need)];
  program_build(L, &prog, FRAME_MEM(need, frame), need, p, lp);
  pss_match m;
  match_init(&m, L, s, ls, &prog);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  size_t at = 0;
  ptrdiff_t last = -1;  /* where the last replaced match ended */
  lua_Integer count = 0;
  int changed = 0;
  while (count < max) {
    if (!anchor) {
      /* copy what cannot start a match in one piece */
      size_t next = pss_pat_next_start(&m, at);
      if (next > ls) break;
      if (next > at) {
        luaL_addlstring(&b, s + at, next - at);
        pss_pat_charge(&m, (next - at) / 16);
        at = next;
      }
    }
    pss_pat_charge(&m, 1);
    ptrdiff_t e = pss_pat_exec(&m, at);
    if (e >= 0 && e != last) {  /* an empty match right after the last one does not count */
      count++;
      changed |= add_replacement(&m, &b, type, repl, lr, at, (size_t)e);
      at = (size_t)e;
      last = e;
    } else if (at < ls) {
      luaL_addchar(&b, s[at]);
      at++;
    } else {
      break;
    }
    if (anchor) break;
  }
  if (at < ls) {
    luaL_addlstring(&b, s + at, ls - at);
    pss_pat_charge(&m, (ls - at) / 16);
  }
  pss_pat_charge_flush(&m);
  if (changed) luaL_pushresult(&b);
  else lua_pushvalue(L, 1);  /* nothing replaced: the subject itself, as stock Lua returns it */
  lua_pushinteger(L, count);
  return 2;
}
