-- Attack: a lazy quantifier whose every choice is skipped to the end of a 32 MiB subject
--         (`.-.-b` on a subject with no "b"): the matcher moves one byte at a time looking
--         for where the rest could start, tens of milliseconds per skip in C.
-- Vector: steps counted but charged only after a skip ended, so the deadline's cancel waited
--         a whole skip (past the 50 ms grace) and the state was abandoned as stuck.
-- Expected: fallback, time, with no host warning (the matcher charges its steps while it
--           skips, so it stops at the deadline and the state is not abandoned); title
--           "attacked".
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("a", 32 * 1024 * 1024)
  for _ = 1, 1e6 do s:find(".-.-b") end
  content.body = "survived"
end
