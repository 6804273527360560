-- Attack: table.sort comparing in C where no hook runs: 200 copies of a 4 MB string sorted
--         without a comparator (strcoll reads each pair to its end: seconds in one call), and
--         200,000 numbers sorted with a C function (rawequal) as the comparator, and tables
--         whose __lt is that C function.
-- Vector: CPU in one C call; with a short deadline the state is abandoned, and its thread
--         keeps comparing long after the answer.
-- Expected: fallback, cpu (the guarded sort charges the comparisons it makes in C; memoryMB 32,
--           timeMs 1000: a host stuck in the sort ends as time).
function didReceive(request, content)
  content.title = "attacked"
  local numbers = {}
  for i = 1, 2e5 do numbers[i] = i % 7 end
  pcall(table.sort, numbers, rawequal)
  local lt = { __lt = rawequal }
  local objects = {}
  for i = 1, 1e5 do objects[i] = setmetatable({}, lt) end
  pcall(table.sort, objects)
  local s = string.rep("a", 4000000)
  local t = {}
  for i = 1, 200 do t[i] = s end
  for i = 1, 1e6 do pcall(table.sort, t) end
  content.body = "survived"
end
