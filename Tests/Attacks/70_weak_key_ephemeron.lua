-- Attack: a weak-keyed table (an ephemeron table) whose entries chain key -> next key in an
--         order the collector's traversal does not follow. Lua marks such chains in its
--         atomic step, one link per pass over every ephemeron table: quadratic, inside one
--         collection step where no hook runs (9.3 s of CPU for a 200 ms budget, measured).
-- Vector: the collector's ephemeron convergence.
-- Expected: the guarded setmetatable refuses weak keys (an error the script can catch):
--           completed, body "blocked". A host that lets the table in and is stopped by the
--           CPU limit ends as cpu; one stuck in the collector ends as time, and fails.
function didReceive(request, content)
  content.title = "attacked"
  local ok, err = pcall(setmetatable, {}, { __mode = "k" })
  local ok2 = pcall(setmetatable, {}, { __mode = "kv" })
  if ok or ok2 then
    -- the attack proper: 20,000 weak tables, one link each, in a scrambled order
    local n = 20000
    local tables, keys = {}, {}
    for i = 1, n do keys[i] = {} end
    local weak = { __mode = "k" }
    for i = 1, n do tables[i] = setmetatable({}, weak) end
    local j = 1
    for i = 1, n - 1 do
      j = (j * 7919) % n + 1
      tables[j][keys[i]] = keys[i + 1]
    end
    keys = { keys[1] }
    local garbage = {}
    for i = 1, 1e7 do garbage[i % 1000 + 1] = { i } end
    content.body = "survived"
    return
  end
  if tostring(err):find("weak", 1, true) then content.body = "blocked" else content.body = "escaped: " .. tostring(err) end
end
