-- Attack: table.sort of a million references to one string of 1,023 bytes, one byte under the
--         length from which comparisons used to be charged: each comparison (strcoll) reads the
--         pair to its end, in one C call (1.2 s of CPU here).
-- Vector: CPU in one C call where no hook runs.
-- Expected: fallback, cpu (every comparison of strings is charged by their length; memoryMB 32,
--           timeMs 600: a host stuck in the sort ends as time).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("a", 1023)
  local t = {}
  for i = 1, 1000000 do t[i] = s end
  table.sort(t)
  content.body = "survived"
end
