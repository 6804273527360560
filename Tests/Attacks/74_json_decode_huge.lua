-- Attack: json.decode of a 3.8 MB array of 1.9 million numbers. The host parses the text
--         before the state can refuse the result (1.9 s of CPU and 209 MB of host memory
--         for a 4 MB text, measured).
-- Vector: a host-side copy of script data that the state's memory limit does not see.
-- Expected: json.decode refuses, before parsing, a text whose value cannot fit in what the
--           state has left: nil, "too large: ..."; completed, body "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local text = "[" .. ("1"):rep(1900000, ",") .. "]"
  local value, err = json.decode(text)
  if value == nil and tostring(err):find("too large", 1, true) then
    content.body = "blocked"
  else
    content.body = "escaped: " .. tostring(err)
  end
end
