-- Attack: as 180, with the memory limit: the never-read `request` is stored in the live
--         userInfo, then didReceive allocates until the state runs out of memory.
-- Vector: losing the best attempt: userInfo is read back from a state whose limit tripped,
--         and making `request` then is a host call.
-- Expected: fallback, memory; the userInfo as the script left it, `request`'s fields included.
function didReceive(request, content)
  content.title = "attacked"
  content.userInfo.marker = "changed"
  content.userInfo.req = request
  local t = {}
  while true do t[#t + 1] = ("x"):rep(1000) .. #t end
end
