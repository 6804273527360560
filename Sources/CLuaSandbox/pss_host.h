/* Host functions and host objects: how Lua calls into the embedding host (pss_host.c). */
#ifndef PSS_HOST_H
#define PSS_HOST_H
#include "pss_context.h"

/* Sets the process-wide dispatch function (once, before any state is made). */
void pss_host_set_dispatch(pss_dispatch_fn fn);
/* Sets the process-wide function of host objects' text fields (once, before any state). */
void pss_host_set_field_dispatch(pss_field_fn fn);

/* Sets up what host functions and objects need in a state, with the value at `format` as the
 * string.format of PSS_KIND_FORMAT; registers the codec's and the lazy views' callbacks. */
void pss_host_open(lua_State *L, int format);

/* Pushes a new closure that calls host function `fid`, preparing arguments as `kind`
 * (PSS_KIND_*) says. */
void pss_push_trampoline(lua_State *L, int32_t fid, int kind);

/* Calls the host's dispatch with the values at first..top as arguments and pushes what it
 * returned; raises the host's error, or the kill. Returns the number of results. */
int pss_dispatch_call(lua_State *L, int32_t fid, int32_t object_id, int first);
/* Calls host function `fid` with no arguments, as pss_dispatch_call does, without touching
 * the argument buffer: it can run while another call's arguments are being encoded (a lazy
 * view met in them is made then), and while the host reads a value out of the state
 * (ctx->reading), where a limit the script hit does not stop it. Returns the number of
 * results. */
int pss_call_without_arguments(lua_State *L, int32_t fid);

/* lua_CFunctions that the entry points (pss.c) run inside their lua_pcall: stack (name, index
 * fid, newindex fid, slot names, slot count, text fid, text field names -> 0-based index)
 * pushes a class id; stack (class id, object id) pushes a new object. */
int pss_host_class_new(lua_State *L);
int pss_host_object_new(lua_State *L);

/* Stores in slot `slot` (1-based) of the host object at -3 the value at -2, with the
 * baseline on top: true (the value's encoding is taken when a script first reads the slot) or
 * the value's encoding (a string). Pops both; raises when -3 is not a host object. */
void pss_object_store_slot(lua_State *L, int slot);
/* Replaces the host object on top by the value in its slot `slot` for the host to read, and
 * returns 1. With `only_changed`, returns 0 and leaves the object when no script read or
 * wrote the slot since it was made, or when the value still is what the host stored (it
 * encodes as the slot's baseline). Raises when the value on top is not a host object. */
int pss_object_push_slot(lua_State *L, int slot, int only_changed);

#endif
