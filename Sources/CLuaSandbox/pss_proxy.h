/* Proxies (pss_proxy.c): tables that stand for another table, and the one way past them.
 *
 * A proxy's metatable carries the proxy tag, its kind:
 * - PSS_PROXY_VIEW: a read-only view. An empty table whose metatable shows a table (its
 *   __index) and refuses writes with the view's name ("request is read-only").
 * - PSS_PROXY_LAZY_VIEW: a read-only view whose table the host makes the first time the script
 *   looks into it; from then on it is a PSS_PROXY_VIEW.
 * - PSS_PROXY_LAZY_TABLE: a run's library table (string, math, json, ...): an empty table that
 *   becomes the run's own copy of the template's table the first time the script uses it, and
 *   a plain table from then on.
 * - PSS_PROXY_STRING_METATABLE: what getmetatable("") is to a run: it reads and lists the
 *   string metatable's fields, with the run's string table as __index, and refuses writes.
 * - PSS_PROXY_LAZY_ENVIRONMENT: a run's environment (_G): an empty table that takes each of
 *   the template's fields the first time the script reads that name (a table as a lazy table
 *   or a copy, as a whole environment would hold it), and all of them when it is looked at past
 *   its metatable; a plain table from then on. Its metatable, one per environment, also
 *   remembers the names it gave or the script assigned, so that a name the script set to nil
 *   stays nil.
 * - PSS_PROXY_HOST_METATABLE, a flag beside one of the above or alone: the metatable is a copy
 *   the host owns of the metatable the script set (pss_metatable.c keeps the rules); the
 *   script sees the table it stands for.
 *
 * pss_proxy_fill is the one way past a proxy's metatable: every C function that reads or
 * changes a script's table past its metatable (the raw-access functions, the codec and its
 * compare, the copy) calls it first, so that no script can tell a lazy proxy from one made at
 * once. */
#ifndef PSS_PROXY_H
#define PSS_PROXY_H
#include "pss_context.h"

/* A proxy's kind: one of the shapes, with PSS_PROXY_HOST_METATABLE or not. */
enum {
  PSS_PROXY_NONE = 0,
  PSS_PROXY_VIEW = 1,
  PSS_PROXY_LAZY_VIEW = 2,
  PSS_PROXY_LAZY_TABLE = 3,
  PSS_PROXY_STRING_METATABLE = 4,
  PSS_PROXY_LAZY_ENVIRONMENT = 5,
  PSS_PROXY_SHAPE = 7,
  PSS_PROXY_HOST_METATABLE = 8,
};

/* What pss_proxy_fill does with a read-only view. */
enum {
  PSS_PROXY_KEEP = 0,  /* nothing: raw access sees the empty proxy, as it sees stock Lua's */
  PSS_PROXY_SHOW = 1,  /* pushes the table it shows, made first when the view is lazy */
};

/* Makes the proxy at `idx` what a C function that looks past its metatable sees: a lazy table
 * becomes the run's copy of the template's table now; with PSS_PROXY_SHOW, a read-only view
 * pushes the table it shows. Returns 1 when it pushed that table, else 0 (any other value,
 * proxy or not, is left as it is). May raise (the host's loader, memory). */
int pss_proxy_fill(lua_State *L, int idx, int show);

/* How a lazy view's table is made: calls host function `loader` with no arguments and returns
 * the number of results it pushed (a read-only view). The host layer registers it once
 * (pss_host_open); until then a lazy view cannot be looked into. */
typedef int (*pss_proxy_loader)(lua_State *L, int32_t loader);
void pss_proxy_set_loader(pss_proxy_loader loader);

/* Replaces the table on top of the stack by a read-only view of it named `name`. */
void pss_proxy_make_view(lua_State *L, const char *name, size_t name_len);
/* Pushes a lazy read-only view named `name` of the table host function `loader` makes. */
void pss_proxy_push_lazy_view(lua_State *L, const char *name, size_t name_len, int32_t loader);
/* Pushes the metatable that makes an empty table a lazy table standing for the template's
 * table at `from` (which has no metatable). One per template table, made once. */
void pss_proxy_push_lazy_metatable(lua_State *L, int from);
/* Pushes a new lazy environment over the template table at `template` (whose tables without a
 * metatable become lazy tables, the others copies, as pss_proxy_push_copy makes them): a run's
 * _G, the value of its "_G" field. */
void pss_proxy_push_lazy_environment(lua_State *L, int template);
/* Pushes what the run's environment at `env` gave, or gives now, under the template's field
 * `key` (a run's own library table, say), whatever the script assigned to that name since; for
 * a table that never was a lazy environment, its field. */
void pss_proxy_push_environment_given(lua_State *L, int env, int key);
/* Pushes the host's own table of the environment at `env`, made the first time it is asked
 * for and gone with the environment: what lives as long as one run's globals (the modules its
 * require loaded), out of the script's reach. */
void pss_proxy_push_environment_store(lua_State *L, int env);
/* Pushes a new view of the string metatable for a run: it reads and lists the table at
 * `fields` (the metatable's fields, the run's string table as __index) and refuses writes. */
void pss_proxy_push_string_view(lua_State *L, int fields);

/* Pushes a copy of the table at `idx` (absolute), with room for `extra` more fields, in which
 * every table is copied in turn, its metatable and JSON array mark kept; a read-only view's
 * copy is a view of a copy. For the template (a tree: the host's values cannot hold cycles),
 * which no run may share a table of with another: a script can change any table it is given
 * (rawset changes even a read-only view). */
void pss_proxy_push_copy(lua_State *L, int idx, int extra);

/* Pushes the metatable the script sees as the table at `idx`'s: the one it set, which a
 * host-owned metatable stands for; returns 0 and pushes nothing when there is none. */
int pss_proxy_push_metatable(lua_State *L, int idx);
/* Tags the new table at `copy` (absolute) as a host-owned metatable standing for the table at
 * `target` (absolute; 0 for none), copied from the table at `from` (absolute; 0 for none): a
 * copy of a view's metatable is still a view's. */
void pss_proxy_tag_host_metatable(lua_State *L, int copy, int from, int target);
/* Whether the key at `idx` is one the proxy module keeps in a metatable for itself (the tag,
 * what a host-owned metatable stands for): a copy of a metatable leaves them out, and tags
 * itself. */
int pss_proxy_owned_key(lua_State *L, int idx);

#endif
