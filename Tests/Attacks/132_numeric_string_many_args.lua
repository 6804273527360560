-- Attack: one C call that converts a numeric string of megabytes hundreds of times.
-- Vector: CPU in one C call that no check can stop. string.char, utf8.char and string.format's
--         %d convert every argument; 250 copies of one 7 MB numeric string (held once, so
--         within the memory limit) are 250 conversions, about 2.5 s here, in a single call:
--         charging the call before it runs cannot stop it, and a state stuck there keeps its
--         Lua thread busy long after the request was answered.
-- Expected: fallback, cpu (the call is refused for its 1.75 GB of string arguments, over the
--           memory limit; memoryMB 32, timeMs 1000: a host that makes the call ends as time).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("0", 7000000) .. "65"
  local a = {}
  for i = 1, 250 do a[i] = s end
  local f = string.rep("%d", 250)
  for i = 1, 1e6 do
    pcall(string.char, table.unpack(a))
    pcall(utf8.char, table.unpack(a))
    pcall(string.format, f, table.unpack(a))
  end
  content.body = "survived"
end
