-- Attack: a payload whose userInfo nests 100 arrays deep (101 tables with userInfo itself), as
--         deep as the host writes into a Lua state; the script only reads it.
-- Vector: a failure made of a read: userInfo is read back when it differs from what the host
--         wrote, and the copy of a value that deep cannot be made (so its compare must not stop
--         short of the bottom and call it changed).
-- Expected: completed; the body tells the script saw the bottom.
function didReceive(request, content)
  local t, depth = content.userInfo.deep, 0
  while t[1] do t, depth = t[1], depth + 1 end
  content.body = "depth " .. depth
end
