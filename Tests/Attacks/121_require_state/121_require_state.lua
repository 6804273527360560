-- Attack: leave state behind in a module for the next request: a field of its table, a global
--         it sets, a replaced require, and a module table changed through require's cache.
-- Vector: cross-request leak through modules (SPEC 1: nothing a request sets is seen by the next).
-- Expected: run 1 completed; run 2 completed, body "clean".
local counter = require "counter"
function didReceive(request, content)
  content.title = "attacked"
  if content.userInfo.step == "poison" then
    counter.poisoned = true
    counter.count = 1000
    moduleGlobal = "left behind"
    require = function() return { poisoned = true } end
    content.body = "survived"
  else
    local leaked = {}
    if counter.poisoned then leaked[#leaked + 1] = "module field" end
    if counter.count ~= 1 then leaked[#leaked + 1] = "count " .. tostring(counter.count) end
    if moduleGlobal ~= nil and moduleGlobal ~= "set by the module" then leaked[#leaked + 1] = "global" end
    if require("counter").poisoned then leaked[#leaked + 1] = "require" end
    content.body = (#leaked == 0) and "clean" or ("leaked: " .. table.concat(leaked, ", "))
  end
end
