-- Attack: the never-read `request` (made only when the script first looks into it) is stored in
--         the live userInfo, then didReceive runs into the CPU limit. The host reads userInfo
--         back from a state whose limit tripped: making `request` then is a host call, which a
--         tripped state refuses.
-- Vector: losing the best attempt: the whole userInfo change is dropped (and a wrong "not
--         enough memory" warning logged).
-- Expected: fallback, cpu; the userInfo as the script left it, `request`'s fields included.
function didReceive(request, content)
  content.title = "attacked"
  content.userInfo.marker = "changed"
  content.userInfo.req = request
  while true do end
end
