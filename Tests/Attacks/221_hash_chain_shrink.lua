-- Attack: a hash part of 2^17 nodes holding 65,537 float keys and 65,535 multiples of 2^16 - 1
--         (spread at that size); the floats are deleted and a new key comes: the rehash sizes
--         the part down to 2^16 nodes, where every live key shares node 0's chain, as many keys
--         as nodes (the worst case for the size: 7.4 s of CPU here, in one instruction).
-- Vector: CPU inside one instruction (luaH_resize shrinking a hash part).
-- Expected: fallback, cpu at once (the shrink is refused as a growth is; timeMs 600).
function didReceive(request, content)
  content.title = "attacked"
  local t = {}
  local M = (1 << 16) - 1
  for i = 1, (1 << 16) + 1 do t[i + 0.5] = true end
  for i = 1, (1 << 16) - 1 do t[i * M] = true end
  for i = 1, (1 << 16) + 1 do t[i + 0.5] = nil end
  t[0.25] = true
  content.body = "survived"
end
