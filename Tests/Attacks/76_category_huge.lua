-- Attack: 12 registered categories with 3 MB identifiers and titles. Categories outlive the
--         request, so the host keeps them (204 MB of host memory per request, a 36 MB
--         result; 1.1 GB after 15 requests in serve, measured).
-- Vector: a host-side copy of script data that outlives the request.
-- Expected: categories.register refuses a category over its size cap with an error the
--           script can catch; completed, body "blocked", and the list stays small.
function didReceive(request, content)
  content.title = "attacked"
  local big = ("x"):rep(3000000)
  local refused = 0
  for i = 1, 12 do
    local ok = pcall(categories.register, {
      identifier = big .. i,
      actions = { { identifier = "a", title = big } },
    })
    if not ok then refused = refused + 1 end
  end
  big = nil
  local long = 0
  for _, id in ipairs(categories.list()) do if #id > 1000 then long = long + 1 end end
  if refused == 12 and long == 0 then content.body = "blocked" else content.body = "escaped: " .. refused end
end
