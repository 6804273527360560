-- Attack: rawset __mode = "k" into a table in use as a metatable: a plain one, one that is
--         its own metatable, one with a metatable of its own, the string metatable's view
--         and the read-only request (rawset changes a view's own table).
-- Vector: the collector's ephemeron convergence (case 70), reached past __newindex.
-- Expected: every rawset raises "... set __mode before setmetatable": completed, body
--           "blocked". A host that lets one through ends as cpu or time.
-- The tables, the collector work and `try` are in 170_modules/weak_route.lua.
local try = require("170_modules.weak_route").try

function didReceive(request, content)
  content.title = "attacked"
  local self = {}
  setmetatable(self, self)
  local escaped = try("plain", {}, function(mt) rawset(mt, "__mode", "k") end)
    or try("self", self, function(mt) rawset(mt, "__mode", "k") end)
    or try("meta-metatable", setmetatable({}, { __index = {} }), function(mt) rawset(mt, "__mode", "k") end)
    or try("string view", getmetatable(""), function(mt) rawset(mt, "__mode", "k") end)
    or try("request", request, function(mt) rawset(mt, "__mode", "k") end)
  content.body = escaped and ("escaped: " .. escaped) or "blocked"
end
