-- Attack: json.decode of objects built to make the host's table building slow: 20,000
--         distinct keys, one key written 20,000 times, and an array of 5,000 objects that
--         each repeat their 8 keys. A reader that finds a repeated key by looking through the
--         pairs read so far does 2·10⁸ comparisons for the first two inside one host call,
--         where the CPU budget is checked only between values.
-- Vector: host work per value that grows with the values before it, in one host call.
-- Expected: each decode is linear and finishes well inside the budget; the tables hold
--           20,000 keys, one key with the last value, and 8 keys with the last values;
--           completed, body "linear".
function didReceive(request, content)
  content.title = "attacked"
  local distinct, repeated = {}, {}
  for i = 1, 20000 do
    distinct[i] = string.format('"k%d":%d', i, i)
    repeated[i] = string.format('"k":%d', i)
  end
  local a = json.decode("{" .. table.concat(distinct, ",") .. "}")
  local b = json.decode("{" .. table.concat(repeated, ",") .. "}")
  local one = '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"a":9,"h":10,"i":11}'
  local c = json.decode("[" .. one:rep(5000, ",") .. "]")
  local count = 0
  for _ in pairs(a) do count = count + 1 end
  local keys = 0
  for _ in pairs(b) do keys = keys + 1 end
  local last = c[5000]
  if count == 20000 and a.k20000 == 20000 and keys == 1 and b.k == 20000 and #c == 5000
     and last.a == 9 and last.h == 10 and last.i == 11 then
    content.body = "linear"
  else
    content.body = string.format("wrong: %d keys, %d, %s", count, keys, tostring(b.k))
  end
end
