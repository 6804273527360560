/* string.find, string.match, string.gmatch and string.gsub over the project's own Lua pattern
 * matcher (Lua 5.4 manual, section 6.4.1; pss_pattern.c).
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
#include "pss_context.h"

int pss_str_find(lua_State *L);
int pss_str_match(lua_State *L);
int pss_str_gmatch(lua_State *L);
int pss_str_gsub(lua_State *L);

#endif
