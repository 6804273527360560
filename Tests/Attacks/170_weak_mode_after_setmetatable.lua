-- Attack: give a metatable weak keys after setmetatable, when the guarded setmetatable has
--         already looked at it: an assignment, a global of a load()ed chunk whose environment
--         is the metatable, an assignment through a proxy's __newindex, a global when _G is
--         the metatable, and an assignment that a script __newindex turns into a rawset.
-- Vector: the collector reads __mode at every cycle (stock liblua5.4); weak keys make the
--         tables ephemerons whose chains cost quadratic time in one atomic step (case 70).
-- Expected: every route raises "... set __mode before setmetatable": completed, body
--           "blocked". A host that lets one through ends as cpu or time.
-- The tables, the collector work and `try` are in 170_modules/weak_route.lua.
local try = require("170_modules.weak_route").try

function didReceive(request, content)
  content.title = "attacked"
  local escaped = try("assignment", {}, function(mt) mt.__mode = "k" end)
    or try("load env", {}, function(mt) load("__mode = 'k'", "=x", "t", mt)() end)
    or try("proxy", {}, function(mt) setmetatable({}, { __newindex = mt }).__mode = "k" end)
    or try("global", _G, function() __mode = "k" end)
    or try("script newindex", setmetatable({}, { __newindex = function(t) rawset(t, "__mode", "k") end }),
      function(mt) mt.x = 1 end)
  content.body = escaped and ("escaped: " .. escaped) or "blocked"
end
