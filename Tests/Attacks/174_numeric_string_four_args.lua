-- Attack: one C call that converts a 7 MB numeric string four times: 28 MB of string
--         arguments, within the 32 MB limit (so not refused as too much text), about 30 ms
--         of conversion in one call that no check can stop, made in a loop under pcall.
-- Vector: CPU in one C call: a call started just before the budget ran out finished 30-40 ms
--         past it (112-142 ms for a 100 ms budget).
-- Expected: fallback, cpu, within the usual margin: a call that big is not started when the
--           budget left cannot cover it (memoryMB 32, timeMs 1000).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("0", 7000000) .. "65"
  for i = 1, 1e6 do
    pcall(string.char, s, s, s, s)
    pcall(utf8.char, s, s, s, s)
    pcall(math.max, s, s, s, s)
  end
  content.body = "survived"
end
