-- Attack: keep the script inside one counted C call (a backtracking string.find on 1 MiB, over
--         and over) when the system's time runs out, hoping the host waits for the call to end.
-- Vector: liveness: the system's deadline (expireMs 100) inside a C function the hook cannot
--         reach.
-- Expected: the call counts its steps and notices the expiry: fallback (time) with a message
--           that says the system's time ran out at 100 ms, and bestAttempt's body, long before
--           the 5 s the host's own limits would allow.
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("a", 1 << 20)
  while true do s:find(".-.-b") end
end

function bestAttempt(content, reason)
  content.body = "best " .. reason.kind
end
