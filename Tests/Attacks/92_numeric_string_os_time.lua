-- Attack: give os.time date fields that are numeric strings of megabytes.
-- Vector: CPU in C calls the count hook does not see. os.time converts each field of its table
--         to an integer, reading all of a numeric string (about 12 ms for 7 MB here); the table's
--         length is 0, so a charge of the arguments' lengths misses it.
-- Expected: fallback, cpu (memoryMB 32, timeMs 1000: a host that does not charge the conversion
--           ends as time instead).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("1", 7000000)
  for i = 1, 1e6 do pcall(os.time, {year = s, month = s, day = s}) end
  content.body = "survived"
end
