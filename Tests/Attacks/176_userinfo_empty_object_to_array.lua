-- Attack: turn an empty object of the payload's userInfo into an empty array, in place.
-- Vector: losing a change: the host reads userInfo back only when it differs from what it
--         wrote, and an empty table is an object or an array only by its JSON mark.
-- Expected: completed; userInfo.data delivered as [] (the empty object the payload had stays
--           one in userInfo.keep, which the script only read).
function didReceive(request, content)
  local u = content.userInfo
  content.title = "attacked " .. tostring(next(u.keep))
  u.data = json.decode("[]")
end
