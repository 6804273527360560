-- Attack: weak keys through the host-owned copies that now follow their tables: a table that is
--         its own metatable, or a class's metatable, gets __mode by assignment, by rawset, by a
--         __newindex added after setmetatable (which the copy follows) that rawsets it, and
--         through a __newindex that is the table itself; each would reach the copy the
--         collector reads.
-- Vector: CPU in the collector (case 70's ephemeron chains) through a metatable's copy.
-- Expected: every route raises "cannot set __mode on a table in use as a metatable"; the copies
--           never take __mode: completed, body "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local refused, routes = 0, 0
  local function route(f)
    routes = routes + 1
    local ok, err = pcall(f)
    if not ok and tostring(err):find("cannot set __mode", 1, true) then refused = refused + 1 end
  end
  local C = {} setmetatable(C, C)
  route(function() C.__mode = "k" end)
  route(function() rawset(C, "__mode", "k") end)
  local D = {} setmetatable(D, D)
  D.__newindex = function(t, k, v) rawset(t, "__mode", "k") end
  route(function() D.x = 1 end)
  local Base = {}
  local Derived = setmetatable({}, Base)
  local instance = setmetatable({}, Derived)
  Base.__newindex = function(t, k, v) rawset(t, "__mode", "k") end
  route(function() Derived.y = 1 end)
  local E = {} setmetatable(E, E) E.__newindex = E
  route(function() E.__mode = "k" end)
  local probe = setmetatable({}, C)
  probe[{}] = true
  local garbage = {}
  for i = 1, 1e5 do garbage[i % 100 + 1] = {i} end
  if refused == routes and next(probe) ~= nil and getmetatable(C) == C then
    content.body = "blocked"
  else
    content.body = "escaped: " .. refused .. " of " .. routes .. " refused"
  end
end
