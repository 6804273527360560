-- Attack: store.increment with bounds at the edges: NaN and infinite bounds, min > max, an
-- integer overflow held at math.maxinteger, bounds of the wrong type.
-- Vector: the host's number handling (a NaN bound would make every comparison false and let
-- any value through; an overflow could wrap).
-- Expected: bad bounds raise errors the script catches; the overflow is held at the bound:
-- completed, body "ok".
function didReceive(request, content)
  content.title = "attacked"
  local results = {}
  for _, bounds in ipairs{{min = 0/0}, {max = math.huge}, {min = -math.huge}, {min = 2, max = 1}, {min = "0"}, {[1] = 0}} do
    results[#results + 1] = pcall(store.increment, "n", 1, bounds)
  end
  store.set("big", math.maxinteger)
  local held = store.increment("big", 1, {max = math.maxinteger})
  local low = store.increment("low", math.mininteger, {min = 0})
  local refused = true
  for _, ok in ipairs(results) do refused = refused and not ok end
  if refused and math.type(held) == "integer" and held == math.maxinteger and low == 0 and store.get("n") == nil then
    content.body = "ok"
  else
    content.body = "broken"
  end
end
