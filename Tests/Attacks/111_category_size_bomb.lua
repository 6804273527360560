-- Attack: register categories with megabyte titles, so that 128 of them hold the host's
-- memory (and the state file) in hundreds of megabytes.
-- Vector: host memory through one large category.
-- Expected: categories.register refuses a category over 16 KiB as JSON with an error the
-- script can catch; nothing is registered: completed, body "refused".
function didReceive(request, content)
  content.title = "attacked"
  local big = string.rep("A", 1000000)
  local ok, err = pcall(categories.register, {identifier = "huge", actions = {{identifier = "a", title = big}}})
  local icon = pcall(categories.register, {identifier = "icon", actions = {{identifier = "a", title = "A", icon = {system = big}}}})
  if not ok and not icon and err:find("at most 16384", 1, true) and not categories.has("huge") and not categories.has("icon") then
    content.body = "refused"
  else
    content.body = "registered"
  end
end
