-- Attack: a userInfo list that holds one small table 10^6 times (1,000 x 1,000 references,
--         40 KB of Lua). Read back when didReceive returns, it becomes 10^6 host values
--         (231 MB of host memory and a 14 MB result, measured).
-- Vector: a host-side copy of script data; sharing makes it far larger than the state.
-- Expected: the read-back is refused past a host budget tied to the memory limit: fallback,
--           reason error, message naming userInfo; the title written before is delivered.
function didReceive(request, content)
  content.title = "attacked"
  local leaf = {}
  local row = {}
  for i = 1, 1000 do row[i] = leaf end
  local list = {}
  for i = 1, 1000 do list[i] = row end
  content.userInfo.list = list
  content.body = "survived"
end
