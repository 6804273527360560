-- Attack: a metatable with weak values (allowed) whose __mode is changed to "k" after
--         setmetatable, by assignment and by rawset (the key exists, so no __newindex runs).
-- Vector: the collector reads __mode at every cycle (case 70's quadratic ephemeron chains).
-- Expected: the table got a host-owned copy of its metatable at setmetatable, so the change
--           is allowed and has no effect: the chain is collected in linear time and an entry
--           with a collectable key and a plain value stays. completed, body "blocked".
local function attack(mt, change)
  local n = 5000
  local tables, keys = {}, {}
  for i = 1, n do keys[i] = {} end
  for i = 1, n do tables[i] = setmetatable({}, mt) end
  local probe = setmetatable({}, mt)
  change(mt)
  probe[{}] = true
  local j = 1
  for i = 1, n - 1 do
    j = (j * 7919) % n + 1
    tables[j][keys[i]] = keys[i + 1]
  end
  keys = { keys[1] }
  local garbage = {}
  for i = 1, 1.5e5 do garbage[i % 1000 + 1] = { i } end
  return next(probe) ~= nil, getmetatable(probe).__mode
end

function didReceive(request, content)
  content.title = "attacked"
  local kept1, mode1 = attack({ __mode = "v" }, function(mt) mt.__mode = "k" end)
  local kept2, mode2 = attack({ __mode = "v" }, function(mt) rawset(mt, "__mode", "kv") end)
  if kept1 and kept2 and mode1 == "k" and mode2 == "kv" then
    content.body = "blocked"
  else
    content.body = "escaped: " .. tostring(kept1) .. " " .. tostring(kept2)
  end
end
