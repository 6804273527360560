/* table.sort, charged.
 *
 * Stock sort compares in C: with no comparator it compares strings with strcoll, which reads
 * a pair of strings to their first difference or to their end, and a C function as the
 * comparator (or as the elements' __lt) runs no hook. A million references to one string of a
 * kilobyte are seconds of comparing in one call. So every comparison made in C is charged:
 * - a table without a metatable sorted by `<` is sorted here, in place with raw access, each
 *   comparison charged by the lengths of its strings (an introsort: quicksort on the median of
 *   three, insertion sort for short runs, heapsort past twice the depth a balanced split
 *   needs, so no input makes it quadratic);
 * - a C comparator, or `<` on a table with a metatable, goes to the stock sort with a comparator
 *   that charges each comparison;
 * - a Lua comparator runs under the hook as it is, in the stock sort. */
#include <limits.h>
#include "pss_charge.h"
#include "pss_lib_sort.h"

/* Ranges this short are sorted by insertion. */
#define SORT_SHORT 12

/* upvalue: the script's comparator (a C function), or nil for `<` */
static int charged_less(lua_State *L) {
  lua_settop(L, 2);
  size_t work = 1;
  for (int i = 1; i <= 2; i++)
    if (lua_type(L, i) == LUA_TSTRING) work += lua_rawlen(L, i);
  pss_charge(L, work);
  if (lua_isnil(L, lua_upvalueindex(1))) {
    lua_pushboolean(L, lua_compare(L, 1, 2, LUA_OPLT));
    return 1;
  }
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, 2, 1);
  return 1;
}

/* Whether the elements of the table at 1 (no metatable) include a value whose __lt is a C
 * function: those are compared through charged_less. */
static int has_c_lt(lua_State *L, lua_Integer n) {
  for (lua_Integer i = 1; i <= n; i++) {
    int t = lua_rawgeti(L, 1, i);
    int c_lt = 0;
    if ((t == LUA_TTABLE || t == LUA_TUSERDATA) && lua_getmetatable(L, -1)) {
      lua_pushliteral(L, "__lt");
      lua_rawget(L, -2);
      c_lt = lua_iscfunction(L, -1);
      lua_pop(L, 2);
    }
    lua_pop(L, 1);
    if (c_lt) return 1;
  }
  return 0;
}

/* ---- The raw sort: the table at 1, elements lo..hi, `<` ---------------------------------- */

/* Pushes element i, charged as the comparison it is fetched for: by its length when it is a
 * string (strcoll reads a pair to its first difference, or to the shorter one's end), else 1.
 * Every comparison has a freshly fetched element on one side, so each is charged at least
 * what it reads. */
static void fetch(lua_State *L, lua_Integer i) {
  size_t work = 1;
  if (lua_rawgeti(L, 1, i) == LUA_TSTRING) work += lua_rawlen(L, -1);
  pss_charge(L, work);
}

/* The value at `a` < the value at `b` (stack indices). */
static int less(lua_State *L, int a, int b) { return lua_compare(L, a, b, LUA_OPLT); }

static void invalid_order(lua_State *L) { luaL_error(L, "invalid order function for sorting"); }

/* Exchanges elements i and j. */
static void swap(lua_State *L, lua_Integer i, lua_Integer j) {
  lua_rawgeti(L, 1, i);
  lua_rawgeti(L, 1, j);
  lua_rawseti(L, 1, i);
  lua_rawseti(L, 1, j);
}

/* Exchanges elements i and j when element j < element i. */
static void order(lua_State *L, lua_Integer i, lua_Integer j) {
  fetch(L, i);
  fetch(L, j);
  if (less(L, -1, -2)) {
    lua_rawseti(L, 1, i);
    lua_rawseti(L, 1, j);
  } else {
    lua_pop(L, 2);
  }
}

static void insertion_sort(lua_State *L, lua_Integer lo, lua_Integer hi) {
  for (lua_Integer k = lo + 1; k <= hi; k++) {
    fetch(L, k);  /* the value to place */
    lua_Integer j = k - 1;
    for (; j >= lo; j--) {
      fetch(L, j);
      if (!less(L, -2, -1)) {
        lua_pop(L, 1);
        break;
      }
      lua_rawseti(L, 1, j + 1);  /* element j moves up */
    }
    lua_rawseti(L, 1, j + 1);
  }
}

/* Sifts element `root` of the heap lo..lo+size-1 (a max-heap, counted from lo) down. */
static void sift_down(lua_State *L, lua_Integer lo, lua_Integer root, lua_Integer size) {
  for (;;) {
    lua_Integer child = 2 * (root - lo) + 1 + lo;
    if (child >= lo + size) return;
    if (child + 1 < lo + size) {
      fetch(L, child);
      fetch(L, child + 1);
      if (less(L, -2, -1)) child++;
      lua_pop(L, 2);
    }
    fetch(L, root);
    fetch(L, child);
    if (!less(L, -2, -1)) {
      lua_pop(L, 2);
      return;
    }
    lua_rawseti(L, 1, root);
    lua_rawseti(L, 1, child);
    root = child;
  }
}

static void heap_sort(lua_State *L, lua_Integer lo, lua_Integer hi) {
  lua_Integer size = hi - lo + 1;
  for (lua_Integer root = lo + size / 2 - 1; root >= lo; root--) sift_down(L, lo, root, size);
  for (lua_Integer last = hi; last > lo; last--) {
    swap(L, lo, last);
    sift_down(L, lo, lo, last - lo);
  }
}

static void sort_range(lua_State *L, lua_Integer lo, lua_Integer hi, int depth) {
  while (hi - lo >= SORT_SHORT) {
    if (depth-- == 0) {
      heap_sort(L, lo, hi);
      return;
    }
    /* the median of lo, mid and hi as the pivot, put at hi - 1; lo and hi bound the scans */
    lua_Integer mid = lo + (hi - lo) / 2;
    order(L, lo, mid);
    order(L, mid, hi);
    order(L, lo, mid);
    swap(L, mid, hi - 1);
    fetch(L, hi - 1);
    int pivot = lua_gettop(L);
    lua_Integer i = lo, j = hi - 1;
    for (;;) {
      for (;;) {  /* up to an element not below the pivot */
        if (++i >= hi) invalid_order(L);
        fetch(L, i);
        if (!less(L, -1, pivot)) break;
        lua_pop(L, 1);
      }
      for (;;) {  /* down to an element not above it */
        if (--j <= lo - 1) invalid_order(L);
        fetch(L, j);
        if (!less(L, pivot, -1)) break;
        lua_pop(L, 1);
      }
      if (j <= i) {
        lua_pop(L, 2);
        break;
      }
      /* element i (below the top) goes to j, element j (the top) to i */
      lua_rawseti(L, 1, i);
      lua_rawseti(L, 1, j);
    }
    lua_pop(L, 1);  /* the pivot */
    swap(L, i, hi - 1);
    /* the smaller side first, by recursion (at most log2 n deep); the larger in this loop */
    if (i - lo < hi - i) {
      sort_range(L, lo, i - 1, depth);
      lo = i + 1;
    } else {
      sort_range(L, i + 1, hi, depth);
      hi = i - 1;
    }
  }
  insertion_sort(L, lo, hi);
}

static void raw_sort(lua_State *L, lua_Integer n) {
  int depth = 0;
  for (lua_Integer m = n; m > 1; m >>= 1) depth += 2;
  luaL_checkstack(L, 8, "table.sort");
  sort_range(L, 1, n, depth);
}

/* table.sort(t [, comp]); upvalue: the stock sort */
int pss_lib_tsort(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  pss_charge(L, 2 + (size_t)n);
  if (lua_isnoneornil(L, 2)) {
    lua_settop(L, 1);
    int has_mt = lua_getmetatable(L, 1);
    if (has_mt) lua_pop(L, 1);
    if (!has_mt && !has_c_lt(L, n)) {
      luaL_argcheck(L, n < INT_MAX, 1, "array too big");
      if (n > 1) raw_sort(L, n);
      return 0;
    }
    lua_pushnil(L);
    lua_pushcclosure(L, charged_less, 1);
  } else {
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_settop(L, 2);
    if (lua_iscfunction(L, 2)) lua_pushcclosure(L, charged_less, 1);
  }
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}
