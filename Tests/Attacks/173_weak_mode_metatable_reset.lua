-- Attack: take the guard off a table in use as a metatable by setting its own metatable (to
--         nil, to a fresh table, to one whose __newindex is a table), then give it weak
--         keys; and set a table as its own metatable.
-- Vector: the collector's ephemeron convergence (case 70).
-- Expected: the guard stays through setmetatable: every route raises "... set __mode before
--           setmetatable": completed, body "blocked".
-- The tables, the collector work and `try` are in 170_modules/weak_route.lua.
local try = require("170_modules.weak_route").try

function didReceive(request, content)
  content.title = "attacked"
  local escaped = try("reset to nil", {}, function(mt) setmetatable(mt, nil); mt.__mode = "k" end)
    or try("reset to {}", {}, function(mt) setmetatable(mt, {}); mt.__mode = "k" end)
    or try("newindex table", {}, function(mt) setmetatable(mt, { __newindex = {} }); mt.__mode = "k" end)
    or try("own metatable", {}, function(mt) setmetatable(mt, mt); mt.__mode = "k" end)
    or try("inherit", {}, function(mt) setmetatable(mt, { __index = {} }); rawset(mt, "__mode", "k") end)
  content.body = escaped and ("escaped: " .. escaped) or "blocked"
end
