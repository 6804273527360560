-- Attack: make one VM instruction take milliseconds, so the instructions between a limit signal
--         and the hook's look at the clocks take seconds.
-- Vector: a numeric string of megabytes as a `for` limit. The VM converts it itself (no
--         metamethod, no C function to charge) on every FORPREP, about 12 ms for 7 MB here; a
--         host whose hook waits 1,000 instructions after the CPU timer fires runs on for about
--         330 such loops: seconds.
-- Expected: fallback, cpu (memoryMB 32, timeMs 1000: a host that waits ends as time instead).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("1", 7000000)
  for i = 1, 1e6 do
    for j = 1, s do break end
  end
  content.body = "survived"
end
