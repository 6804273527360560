-- Attack: take the guard off a table in use as a metatable by setting its own metatable (to
--         nil, to a fresh table, to one whose __newindex is a table), then give it weak
--         keys; and set a table as its own metatable.
-- Vector: the collector's ephemeron convergence (case 70).
-- Expected: the guard stays through setmetatable: every route raises "... set __mode before
--           setmetatable": completed, body "blocked".
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
  local escaped = try("reset to nil", {}, function(mt) setmetatable(mt, nil); mt.__mode = "k" end)
    or try("reset to {}", {}, function(mt) setmetatable(mt, {}); mt.__mode = "k" end)
    or try("newindex table", {}, function(mt) setmetatable(mt, { __newindex = {} }); mt.__mode = "k" end)
    or try("own metatable", {}, function(mt) setmetatable(mt, mt); mt.__mode = "k" end)
    or try("inherit", {}, function(mt) setmetatable(mt, { __index = {} }); rawset(mt, "__mode", "k") end)
  content.body = escaped and ("escaped: " .. escaped) or "blocked"
end
