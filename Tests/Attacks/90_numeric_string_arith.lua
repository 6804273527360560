-- Attack: make every arithmetic instruction convert a numeric string of megabytes.
-- Vector: CPU in C calls the count hook does not see. Lua 5.4 does arithmetic on strings through
--         the string metatable's __add etc. ("10" + 1 == 11): each call converts the whole string
--         (about 12 ms for 7 MB here), and the hook runs once per thousand instructions, so an
--         uncharged host checks the clocks only after seconds.
-- Expected: fallback, cpu (memoryMB 32, timeMs 1000: a host that does not charge the conversion
--           ends as time instead).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("1", 7000000)
  local x
  for i = 1, 1e6 do x = s + 1 end
  content.body = "survived"
end
