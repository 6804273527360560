-- Attack: require "string" (and "table", "math", "coroutine", "utf8") gives a standard
--         library, as stock Lua does: a field written into the table it gives, or a function
--         replaced in it, would reach the next request if it were a table shared by requests.
-- Vector: state kept across requests through require's value.
-- Run 1 writes into each library require gives and replaces string.upper through it. Run 2
-- checks that the libraries are the request's own and whole.
-- Expected: run 1 completed, body "poisoned"; run 2 completed, body "clean".
local names = {"string", "table", "math", "coroutine", "utf8"}
function didReceive(request, content)
  content.title = "attacked"
  if content.userInfo.step == "poison" then
    for _, name in ipairs(names) do require(name).leaked = name end
    require("string").upper = function() return "poisoned" end
    content.body = ("x"):upper() == "poisoned" and "poisoned" or "not poisoned"
    return
  end
  local dirty = {}
  for _, name in ipairs(names) do
    if require(name).leaked ~= nil or _ENV[name].leaked ~= nil then dirty[#dirty + 1] = name end
    if require(name) ~= _ENV[name] then dirty[#dirty + 1] = name .. " is not the request's" end
  end
  if ("x"):upper() ~= "X" then dirty[#dirty + 1] = "string.upper" end
  content.body = #dirty == 0 and "clean" or ("leaked: " .. table.concat(dirty, ", "))
end
