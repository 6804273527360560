/* The capped allocator: the memory limit, and the one growth the CPU limit must see first.
 *
 * A table's hash part grows (or shrinks) inside one VM instruction: luaH_resize makes the new
 * node vector and re-inserts every key into it, each after a walk along its key's chain. Keys
 * that share one chain make that walk as long as the keys inserted before them, so the
 * re-insertion is quadratic, and no hook can run inside it: in Lua 5.4 an integer key's chain
 * is its value modulo ((nodes - 1) | 1), so multiples of 2^k - 1 all land in node 0 of a hash
 * part of 2^k nodes (65,537 of them take seconds). The allocator sees the new node vector
 * before any key is moved, and decides whether the CPU budget left covers the move:
 * - when it covers the worst case (every key in one chain), at once;
 * - else it counts what the move can cost: the allocator keeps the hash parts it made of
 *   PSS_REHASH_MIN_NODES nodes or more, and the table being resized holds one of them. For
 *   each it counts the chain steps its keys would make in the new size: integer keys by their
 *   chain (their value modulo the new size's divisor), float keys by theirs (Lua's float hash,
 *   or as if they all shared the longest chain where it cannot be checked), other keys as
 *   spread (a string's hash is seeded per state; a table's or a function's is its address).
 *   The largest count is what the move can cost;
 * - when the budget left does not cover that, it trips the CPU limit and refuses the block:
 *   Lua raises with the table as it was, and the kill follows.
 * Reading a hash part uses the layout of Lua 5.4's Node, which pss_alloc_probe checks on a
 * table it makes; where it does not match, the worst case decides.
 *
 * Small blocks (up to PSS_SMALL_MAX bytes, most of what a script makes)
 * come in size classes, and a block Lua frees is kept on its state's list for the class and
 * given out again, up to PSS_SMALL_CACHE_BYTES a state: a state runs on one thread at a time,
 * so this takes no lock, and a state served by another thread than last time does not free
 * into, or take from, the C library's other arenas. What the memory limit counts is what Lua
 * asked for, as before. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "pss_alloc.h"
#include "pss_charge.h"
#include "pss_kill.h"
#include "pss_timer.h"

/* Lua 5.4's Node (ltable.h): the value (8 bytes, then its type byte), the key's type byte, the
 * chain offset (an int) and the key's value (8 bytes): 24 bytes on a 64-bit platform. A hash
 * part is a fresh block (no old pointer, no type tag: luaM_newvector) of a power of two of
 * them. */
#define PSS_LUA_NODE_BYTES 24
#define PSS_NODE_VALUE_TYPE 8
#define PSS_NODE_KEY_TYPE 9
#define PSS_NODE_KEY_VALUE 16
_Static_assert(sizeof(void *) == 8 && sizeof(lua_Integer) == 8 && sizeof(lua_Number) == 8,
               "PSS_LUA_NODE_BYTES is the size of Lua 5.4's Node on a 64-bit platform");
/* Lua 5.4's type tags with their variant bits (lobject.h): an integer, a float. */
#define PSS_TAG_INT (LUA_TNUMBER | (0 << 4))
#define PSS_TAG_FLT (LUA_TNUMBER | (1 << 4))

/* The most bytes of freed small blocks a state keeps for reuse; past that they are freed. */
#define PSS_SMALL_CACHE_BYTES ((size_t)256 * 1024)

/* The class of a block of `size` bytes (1 to PSS_SMALL_MAX), and the bytes a block of class
 * `c` has: PSS_SMALL_BASE plus steps of PSS_SMALL_STEP, the sizes the C library's blocks hold
 * (glibc: a chunk of 16n bytes holds 16n - 8), so that a block of a class costs what a block of
 * the size asked for would. */
#define PSS_SMALL_BASE 24
#define PSS_SMALL_MAX (PSS_SMALL_BASE + (PSS_SMALL_CLASSES - 1) * PSS_SMALL_STEP)
static inline size_t small_class(size_t size) {
  return size <= PSS_SMALL_BASE ? 0 : (size - PSS_SMALL_BASE + PSS_SMALL_STEP - 1) / PSS_SMALL_STEP;
}
static inline size_t class_bytes(size_t c) { return PSS_SMALL_BASE + c * PSS_SMALL_STEP; }
static inline int is_small(size_t size) { return size != 0 && size <= PSS_SMALL_MAX; }

/* A block for `size` small bytes: one the state freed, or a new one of its class's size. */
static void *small_take(pss_context *ctx, size_t size) {
  size_t c = small_class(size);
  void *block = ctx->small_free[c];
  if (block != NULL) {
    ctx->small_free[c] = *(void **)block;
    ctx->small_cached -= class_bytes(c);
    return block;
  }
  return malloc(class_bytes(c));
}

/* Gives back a small block of `size` bytes (what Lua asked for it). */
static void small_give(pss_context *ctx, void *block, size_t size) {
  size_t c = small_class(size);
  if (ctx->small_cached + class_bytes(c) > PSS_SMALL_CACHE_BYTES) {
    free(block);
    return;
  }
  *(void **)block = ctx->small_free[c];
  ctx->small_free[c] = block;
  ctx->small_cached += class_bytes(c);
}

/* Moves a block of `osize` bytes to one of `nsize`, where one of them or both are small. NULL
 * (the old block kept) when no memory is left. */
static void *small_move(pss_context *ctx, void *ptr, size_t osize, size_t nsize) {
  if (is_small(osize) && is_small(nsize) && small_class(osize) == small_class(nsize)) return ptr;
  void *block = is_small(nsize) ? small_take(ctx, nsize) : malloc(nsize);
  if (block == NULL) return NULL;
  memcpy(block, ptr, osize < nsize ? osize : nsize);
  if (is_small(osize)) small_give(ctx, ptr, osize);
  else free(ptr);
  return block;
}

/* Hash parts smaller than this are not looked at: at the worst their keys take 2.6 ms (at
 * PSS_CHAIN_STEP_PS a step). */
#define PSS_REHASH_MIN_NODES ((size_t)1 << 10)

/* The CPU time one step of a chain walk takes at the most, in picoseconds: 3.7-3.9 ns measured
 * here for chains of 2^12 to 2^17 keys (stock Lua, the growth of attack case 220), with a
 * margin. */
#define PSS_CHAIN_STEP_PS 5000

/* The CPU time re-inserting `keys` keys takes at the worst, when they all share one chain, in
 * nanoseconds (saturating). */
static int64_t rehash_worst_ns(uint64_t keys) {
  /* key i walks the i - 1 keys inserted before it into the same chain */
  if (keys > ((uint64_t)1 << 26)) return INT64_MAX;
  uint64_t steps = keys * (keys - 1) / 2;
  if (steps > (uint64_t)INT64_MAX / PSS_CHAIN_STEP_PS) return INT64_MAX;
  return (int64_t)(steps * PSS_CHAIN_STEP_PS / 1000);
}

/* ---- The hash parts the allocator made ----------------------------------------------------- */

typedef struct hash_part {
  const unsigned char *block;
  size_t nodes;
} hash_part;

struct pss_hash_parts {
  hash_part *items;
  size_t count, capacity;
  int incomplete;  /* one could not be kept: their keys are not known */
};

static void keep_part(pss_context *ctx, void *block, size_t nodes) {
  pss_hash_parts *p = ctx->hash_parts;
  if (p == NULL) {
    p = ctx->hash_parts = calloc(1, sizeof *p);
    if (p == NULL) return;
  }
  if (p->count == p->capacity) {
    size_t capacity = p->capacity ? 2 * p->capacity : 16;
    hash_part *items = realloc(p->items, capacity * sizeof *items);
    if (items == NULL) {
      p->incomplete = 1;
      return;
    }
    p->items = items;
    p->capacity = capacity;
  }
  p->items[p->count].block = block;
  p->items[p->count].nodes = nodes;
  p->count++;
}

static void drop_part(pss_context *ctx, void *block) {
  pss_hash_parts *p = ctx->hash_parts;
  if (p == NULL) return;
  for (size_t i = 0; i < p->count; i++) {
    if (p->items[i].block == block) {
      p->items[i] = p->items[--p->count];
      return;
    }
  }
}

void pss_alloc_forget(pss_context *ctx) {
  for (size_t c = 0; c < PSS_SMALL_CLASSES; c++) {
    while (ctx->small_free[c] != NULL) {
      void *block = ctx->small_free[c];
      ctx->small_free[c] = *(void **)block;
      free(block);
    }
  }
  ctx->small_cached = 0;
  if (ctx->hash_parts == NULL) return;
  free(ctx->hash_parts->items);
  free(ctx->hash_parts);
  ctx->hash_parts = NULL;
}

/* Whether a float key's chain is known (float_hash agrees with Lua: pss_alloc_probe checks).
 * Where it is not, the float keys count as one chain. */
static _Atomic int float_hash_known;

/* A float key's hash in Lua 5.4, before the modulo: its mantissa scaled to 31 bits plus its
 * exponent (frexp), folded into a non-negative int; 0 for an infinity or a NaN. */
static uint64_t float_hash(double n) {
  int exponent;
  double scaled = frexp(n, &exponent) * 2147483648.0;
  if (!(scaled >= -9223372036854775808.0 && scaled < 9223372036854775808.0)) return 0;
  unsigned int u = (unsigned int)exponent + (unsigned int)(long long)scaled;
  return u <= (unsigned int)INT_MAX ? u : ~u;
}

/* The chain of the integer or float key of `node` in a hash part whose divisor is `divisor`,
 * or -1 for another key (spread: see the top) or a float key whose chain is not known. */
static int64_t key_chain(const unsigned char *node, uint64_t divisor) {
  if (node[PSS_NODE_KEY_TYPE] == PSS_TAG_INT) {
    uint64_t key;
    memcpy(&key, node + PSS_NODE_KEY_VALUE, sizeof key);
    return (int64_t)(key % divisor);
  }
  if (node[PSS_NODE_KEY_TYPE] == PSS_TAG_FLT && atomic_load_explicit(&float_hash_known, memory_order_relaxed)) {
    double key;
    memcpy(&key, node + PSS_NODE_KEY_VALUE, sizeof key);
    return (int64_t)(float_hash(key) % divisor);
  }
  return -1;
}

/* The chain steps re-inserting the keys of `part` into a hash part of `nodes` nodes makes at
 * the most, counting chains in `chains` (one counter per chain, zero on entry and on return). */
static uint64_t part_steps(const hash_part *part, size_t nodes, uint32_t *chains) {
  uint64_t divisor = (uint64_t)((nodes - 1) | 1);
  uint64_t steps = 0, floats = 0, longest = 0;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t i = 0; i < part->nodes; i++) {
      const unsigned char *node = part->block + i * PSS_LUA_NODE_BYTES;
      if ((node[PSS_NODE_VALUE_TYPE] & 0x0F) == LUA_TNIL) continue;  /* empty: not moved */
      int64_t chain_index = key_chain(node, divisor);
      if (chain_index >= 0) {
        uint32_t *chain = &chains[chain_index];
        if (pass == 0) {
          steps += *chain;  /* the keys before it in its chain */
          (*chain)++;
          if (*chain > longest) longest = *chain;
        } else {
          *chain = 0;
        }
      } else if (pass == 0 && node[PSS_NODE_KEY_TYPE] == PSS_TAG_FLT) {
        floats++;
      }
    }
  }
  /* floats of unknown chains as one chain, after the longest one */
  return steps + floats * longest + floats * (floats ? floats - 1 : 0) / 2;
}

/* What moving the keys of the table being resized into `nodes` nodes costs at the most, in
 * nanoseconds: the costliest of the hash parts kept (one of them is that table's, or its old
 * hash part is small), or INT64_MAX when their keys cannot be read. */
static int64_t rehash_cost_ns(pss_context *ctx, size_t nodes);

/* ---- Where hash parts come from -------------------------------------------------------- */

/* Where Lua's allocation of new untyped blocks (luaM_malloc_, which makes hash parts) calls the
 * allocator from: the return address pss_alloc sees then. Buffers (luaL_Buffer) and array parts
 * of the same sizes are allocated from elsewhere (lauxlib, luaM_realloc_), so they are not
 * taken for hash parts. NULL until pss_alloc_probe found it: every caller is then taken for
 * it. */
static void *_Atomic node_vector_site;
/* Whether a hash part reads as the Node layout above says (checked by pss_alloc_probe). */
static _Atomic int node_layout_known;
static _Thread_local int probing;
static _Thread_local void *probe_block;
#define PSS_PROBE_NODES 8
#define PSS_PROBE_FLOATS 3
#define PSS_PROBE_INTEGER 12345

/* Reads the probe's hash part: bit 0 when its integer key is where the layout and Lua 5.4's
 * integer chains say (inserted first, it keeps its chain's node: 12345 modulo (8 - 1) | 1),
 * bit 1 when each of its float keys is in the node float_hash says. */
static int probe_layout(const unsigned char *block, const double *floats) {
  int integer_seen = 0, floats_seen = 0;
  uint64_t divisor = (PSS_PROBE_NODES - 1) | 1;
  for (size_t i = 0; i < PSS_PROBE_NODES; i++) {
    const unsigned char *node = block + i * PSS_LUA_NODE_BYTES;
    if ((node[PSS_NODE_VALUE_TYPE] & 0x0F) != LUA_TBOOLEAN) continue;
    if (node[PSS_NODE_KEY_TYPE] == PSS_TAG_INT) {
      int64_t key;
      memcpy(&key, node + PSS_NODE_KEY_VALUE, sizeof key);
      if (key == PSS_PROBE_INTEGER && i == PSS_PROBE_INTEGER % divisor) integer_seen = 1;
    } else if (node[PSS_NODE_KEY_TYPE] == PSS_TAG_FLT) {
      double key;
      memcpy(&key, node + PSS_NODE_KEY_VALUE, sizeof key);
      for (int f = 0; f < PSS_PROBE_FLOATS; f++)
        if (key == floats[f] && i == float_hash(key) % divisor) floats_seen++;
    }
  }
  return integer_seen | (floats_seen == PSS_PROBE_FLOATS ? 2 : 0);
}

void pss_alloc_probe(lua_State *L) {
  if (atomic_load(&node_vector_site) != NULL) return;
  /* floats whose chains are neither the integer's nor each other's: each keeps its own node */
  uint64_t divisor = (PSS_PROBE_NODES - 1) | 1;
  double floats[PSS_PROBE_FLOATS];
  int taken = 1 << (PSS_PROBE_INTEGER % divisor);
  double candidate = 0.75;
  for (int f = 0; f < PSS_PROBE_FLOATS; candidate = candidate * 1.5 + 0.125) {
    int chain = (int)(float_hash(candidate) % divisor);
    /* a float with an integral value is an integer key */
    if (candidate == floor(candidate) || (taken & (1 << chain))) continue;
    taken |= 1 << chain;
    floats[f++] = candidate;
  }
  probing = 1;
  probe_block = NULL;
  lua_createtable(L, 0, PSS_PROBE_NODES);
  probing = 0;
  lua_pushboolean(L, 1);
  lua_rawseti(L, -2, PSS_PROBE_INTEGER);
  for (int f = 0; f < PSS_PROBE_FLOATS; f++) {
    lua_pushnumber(L, floats[f]);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
  }
  int seen = probe_block != NULL ? probe_layout(probe_block, floats) : 0;
  if (seen & 1) atomic_store(&node_layout_known, 1);
  if (seen == 3) atomic_store(&float_hash_known, 1);
  lua_pop(L, 1);
}

int pss_alloc_reads_hash_parts(void) {
  if (atomic_load(&node_vector_site) == NULL || !atomic_load(&node_layout_known)) return 0;
  return atomic_load(&float_hash_known) ? 3 : 1;
}

static int64_t rehash_cost_ns(pss_context *ctx, size_t nodes) {
  pss_hash_parts *p = ctx->hash_parts;
  if (!atomic_load(&node_layout_known) || (p != NULL && p->incomplete)) return INT64_MAX;
  /* a table's old hash part too small to be kept costs this much at the most */
  int64_t cost = rehash_worst_ns(PSS_REHASH_MIN_NODES);
  if (p == NULL || p->count == 0) return cost;
  uint32_t *chains = calloc((nodes - 1) | 1, sizeof *chains);
  if (chains == NULL) return INT64_MAX;
  uint64_t most = 0;
  for (size_t i = 0; i < p->count; i++) {
    uint64_t steps = part_steps(&p->items[i], nodes, chains);
    if (steps > most) most = steps;
  }
  free(chains);
  if (most > (uint64_t)(INT64_MAX - cost) / PSS_CHAIN_STEP_PS * 1000) return INT64_MAX;
  return cost + (int64_t)(most * PSS_CHAIN_STEP_PS / 1000);
}

/* The number of nodes of the hash part a fresh block of `nsize` bytes would be, or 0 when it
 * cannot be one (or is too small to matter). */
static size_t hash_part_nodes(size_t nsize) {
  if (nsize % PSS_LUA_NODE_BYTES != 0) return 0;
  size_t nodes = nsize / PSS_LUA_NODE_BYTES;
  if (nodes < PSS_REHASH_MIN_NODES || (nodes & (nodes - 1)) != 0) return 0;
  return nodes;
}

/* Whether the run may make a hash part of `nodes` nodes: what moving the keys into it costs
 * fits in the CPU budget left. Trips the CPU limit when it does not. */
static int rehash_fits(pss_context *ctx, size_t nodes) {
  if (!ctx->armed || ctx->cpu_budget_ns == 0 || ctx->reading) return 1;
  int64_t left = pss_cpu_left_ns(ctx);
  if (rehash_worst_ns(nodes) < left) return 1;
  if (rehash_cost_ns(ctx, nodes) < left) return 1;
  /* The hook is set on the running thread: lua_sethook only stores, as in a signal. */
  pss_trip_set(ctx, atomic_load(&ctx->running), PSS_TRIP_CPU);
  return 0;
}

void *pss_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  pss_context *ctx = (pss_context *)ud;
  size_t part_nodes = 0;
  if (ptr == NULL) {
    /* osize then encodes the object's type, not a size: 0 for other blocks */
    if (osize == 0 && nsize >= PSS_REHASH_MIN_NODES * PSS_LUA_NODE_BYTES &&
        (part_nodes = hash_part_nodes(nsize)) != 0) {
      /* once refused, the retry after the emergency collection (another caller) too */
      if (ctx->armed && atomic_load(&ctx->trip) == PSS_TRIP_CPU) return NULL;
      void *site = atomic_load_explicit(&node_vector_site, memory_order_relaxed);
      if (site != NULL && site != __builtin_return_address(0)) part_nodes = 0;
      else if (!rehash_fits(ctx, part_nodes)) return NULL;
    } else if (probing && osize == 0 && nsize == PSS_PROBE_NODES * PSS_LUA_NODE_BYTES) {
      atomic_store(&node_vector_site, __builtin_return_address(0));
      probing = 2;
    }
    osize = 0;
  }
  if (nsize == 0) {
#if PSS_TIMER_WATCHDOG
    /* the watchdog may be walking this thread's call list (pss_timer_watchdog.c) */
    if (atomic_load_explicit(&ctx->timer.poking, memory_order_acquire)) pss_timer_wait_poke(ctx);
#endif
    if (osize >= PSS_REHASH_MIN_NODES * PSS_LUA_NODE_BYTES && hash_part_nodes(osize))
      drop_part(ctx, ptr);
    if (is_small(osize)) small_give(ctx, ptr, osize);
    else free(ptr);
    ctx->used -= osize;
    return NULL;
  }
  if (nsize > osize) {
    size_t grow = nsize - osize;
    if (ctx->used + grow > ctx->limit || ctx->used + grow < ctx->used) {
      /* Not a trip yet: Lua collects garbage and asks again (see memory_refused). */
      if (ctx->armed) ctx->memory_refused = 1;
      return NULL;
    }
  }
  if (ptr != NULL && osize >= PSS_REHASH_MIN_NODES * PSS_LUA_NODE_BYTES && hash_part_nodes(osize))
    drop_part(ctx, ptr);  /* a block taken for a hash part (none is ever resized) */
  void *block;
  if (ptr == NULL) block = is_small(nsize) ? small_take(ctx, nsize) : malloc(nsize);
  else if (is_small(osize) || is_small(nsize)) block = small_move(ctx, ptr, osize, nsize);
  else block = realloc(ptr, nsize);
  if (block == NULL) return NULL;
  if (part_nodes) keep_part(ctx, block, part_nodes);
  if (probing == 2) {
    probe_block = block;
    probing = 1;
  }
  ctx->memory_refused = 0;
  ctx->used = ctx->used - osize + nsize;
  if (ctx->used > ctx->peak) ctx->peak = ctx->used;
  return block;
}

static int fits(pss_context *ctx, size_t bytes) {
  return bytes <= ctx->limit && ctx->used <= ctx->limit - bytes;
}

void pss_reserve(lua_State *L, size_t bytes) {
  pss_context *ctx = pss_ctx(L);
  if (ctx == NULL || fits(ctx, bytes)) return;
  if (bytes <= ctx->limit) lua_gc(L, LUA_GCCOLLECT);  /* no finalizer exists: no script runs */
  if (!fits(ctx, bytes)) {
    if (ctx->armed) {
      pss_trip_set(ctx, L, PSS_TRIP_MEMORY);
      pss_raise_kill(L);
    }
    luaL_error(L, "not enough memory");
  }
}
