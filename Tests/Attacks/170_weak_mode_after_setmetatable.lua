-- Attack: give a metatable weak keys after setmetatable, when the guarded setmetatable has
--         already looked at it: an assignment, a global of a load()ed chunk whose environment
--         is the metatable, an assignment through a proxy's __newindex, a global when _G is
--         the metatable, and an assignment that a script __newindex turns into a rawset.
-- Vector: the collector reads __mode at every cycle (stock liblua5.4); weak keys make the
--         tables ephemerons whose chains cost quadratic time in one atomic step (case 70).
-- Expected: every route raises "... set __mode before setmetatable": completed, body
--           "blocked". A host that lets one through ends as cpu or time.
-- Tables with metatable `mt` whose entries chain key -> next key in a scrambled order; then
-- garbage, so that the collector runs. With weak keys this is quadratic in one atomic step.
local function chain(mt)
  local n = 20000
  local tables, keys = {}, {}
  for i = 1, n do keys[i] = {} end
  for i = 1, n do tables[i] = setmetatable({}, mt) end
  return function()
    local j = 1
    for i = 1, n - 1 do
      j = (j * 7919) % n + 1
      tables[j][keys[i]] = keys[i + 1]
    end
    keys = { keys[1] }
    local garbage = {}
    for i = 1, 3e5 do garbage[i % 1000 + 1] = { i } end
  end
end

-- Runs `route` (which tries to give `mt` weak keys after setmetatable) on tables that use
-- `mt`: "blocked" when it is refused with the reason, else the attack runs and the result
-- says what got through.
local function try(name, mt, route)
  local attack = chain(mt)
  local ok, err = pcall(route, mt)
  if not ok then
    if tostring(err):find("set __mode before setmetatable", 1, true) then return nil end
    return name .. ": " .. tostring(err)
  end
  attack()
  return name
end

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
