-- Attack: json.decode of a 400 KB array of 200,000 numbers, in a loop. Each call fits in
--         memory, but parsing it in the host took about 170 ms of CPU in one call: a 100 ms
--         budget ended at 270 ms.
-- Vector: host work inside one host call, unchecked until it returned.
-- Expected: the host's reader looks at the CPU budget every few thousand values and stops
--           the call: fallback, reason cpu, within the usual margin.
function didReceive(request, content)
  content.title = "attacked"
  local text = "[" .. ("1"):rep(200000, ",") .. "]"
  while true do local v = json.decode(text) end
  content.body = "survived"
end
