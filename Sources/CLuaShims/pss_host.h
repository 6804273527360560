/* Host functions and host objects: how Lua calls into the embedding host. */
#ifndef PSS_HOST_H
#define PSS_HOST_H
#include "pss_internal.h"

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

/* Sets up the registry tables host objects and functions need. */
void pss_host_open(lua_State *L);

/* lua_CFunctions run under pss_protected: stack (name, index fid, newindex fid, slot names,
 * slot count)
 * pushes a class id; stack (class id, object id) pushes a new object. */
int pss_host_class_new(lua_State *L);
int pss_host_object_new(lua_State *L);

/* A host object's user values: slot i's value at PSS_SLOT_VALUE(i), and at PSS_SLOT_BASELINE(i)
 * what a read compares with: true after the host stored a value, the encoding of that value
 * (a string) from when a script first read it, nil once a script assigned the slot or a read
 * found it changed. A value that still encodes as its baseline is unchanged. */
#define PSS_SLOT_VALUE(slot) (2 * (slot) - 1)
#define PSS_SLOT_BASELINE(slot) (2 * (slot))

/* A host object's bytes: its id, the tag "pssO", then one bit per slot that a script has
 * read or written (the host's own stores leave it clear). */
#define PSS_OBJECT_TAG_OFFSET 4
#define PSS_OBJECT_TOUCHED_OFFSET 8
#define PSS_OBJECT_SIZE 12

#endif
