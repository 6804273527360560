-- Attack: store.increment at the ends of the integer range with integer bounds: a count held at
--         math.mininteger, stepped below it, and one stepped past math.maxinteger with only a
--         min; an integer sum past 64 bits would become a float, and a bound compared as a
--         double (53 bits) would let a value through one below it.
-- Vector: the host's number handling (a float where the script counts integers).
-- Expected: every result an integer at its bound: completed, body "ok".
function didReceive(request, content)
  content.title = "attacked"
  store.set("low", math.mininteger)
  local a = store.increment("low", -1, {min = math.mininteger})
  store.set("near", math.mininteger + 1000)
  local b = store.increment("near", -1001, {min = math.mininteger + 1})
  store.set("high", math.maxinteger)
  local c = store.increment("high", 1, {min = math.mininteger})
  local ok = math.type(a) == "integer" and a == math.mininteger
    and math.type(b) == "integer" and b == math.mininteger + 1
    and math.type(c) == "integer" and c == math.maxinteger
  content.body = ok and "ok" or ("broken: " .. tostring(a) .. " " .. tostring(b) .. " " .. tostring(c))
end
