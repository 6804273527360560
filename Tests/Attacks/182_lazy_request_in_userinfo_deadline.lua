-- Attack: as 180, with the deadline: the never-read `request` is stored in the live userInfo,
--         then didReceive spins until the deadline comes.
-- Vector: losing the best attempt: userInfo is read back from a state stopped by the deadline,
--         and making `request` then is a host call.
-- Expected: fallback, time; the userInfo as the script left it, `request`'s fields included.
function didReceive(request, content)
  content.title = "attacked"
  content.userInfo.marker = "changed"
  content.userInfo.req = request
  while true do end
end
