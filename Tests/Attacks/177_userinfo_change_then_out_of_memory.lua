-- Attack: change userInfo, then fill the memory limit with small tables that stay reachable.
-- Vector: losing the best attempt: userInfo is read back from a state with no memory left, and
--         telling whether it changed makes the payload's keys as Lua strings (a key longer than
--         40 bytes, as the payload's 2,000-byte key, is a new string each time).
-- Expected: fallback, memory; userInfo as the script left it; no host warning.
function didReceive(request, content)
  content.title = "attacked"
  content.userInfo.marker = "changed"
  hog = nil
  while true do hog = {hog} end
end
