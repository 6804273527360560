-- Attack: integer keys that are multiples of 2^17 - 1 spread over every hash part up to 2^16
--         nodes, then all share node 0's chain when the 65,537th key grows the part to 2^17
--         nodes: the growth re-inserts them inside one VM instruction, each after a walk along
--         the chain (quadratic: 7.4 s of CPU here, where no hook can run).
-- Vector: CPU inside one instruction (luaH_resize); with a short deadline the state is
--         abandoned and its thread keeps re-inserting long after the answer.
-- Expected: fallback, cpu at once (the allocator sees the new hash part before any key moves,
--           counts the chain steps of the keys the table holds, and refuses a growth the CPU
--           left cannot cover; timeMs 600: a host stuck in the growth ends as time).
function didReceive(request, content)
  content.title = "attacked"
  local t = {}
  local M = (1 << 17) - 1
  for i = 1, (1 << 16) + 1 do t[i * M] = true end
  content.body = "survived"
end
