-- Attack: the same as case 130 with no conversion at all.
-- Vector: `==` on two equal, distinct strings of 12 MB. The VM compares them with memcmp on
--         every EQ (about 2 ms here); a `while` of two instructions per comparison keeps a host
--         whose hook waits 1,000 instructions after the CPU timer fires running for a second.
-- Expected: fallback, cpu (memoryMB 64, timeMs 600: a host that waits ends as time instead).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("1", 12000000)
  local t = string.rep("1", 12000000)
  while s == t do end
  content.body = "survived"
end
