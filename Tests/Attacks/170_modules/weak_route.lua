-- What cases 170, 171 and 173 share: tables whose metatable a route tries to give weak keys
-- after setmetatable, and the collector work that follows when it succeeds.
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

return { try = try }
