-- Attack: a module that allocates past the memory limit while it loads, required under pcall
--         so that the script can go on as if nothing happened.
-- Vector: limits (a module's chunk runs inside require, a host function's caller).
-- Expected: the memory limit ends the run; pcall cannot catch it: fallback, memory.
function didReceive(request, content)
  content.title = "attacked"
  local ok = pcall(require, "120_modules.bomb")
  content.body = "survived: " .. tostring(ok)
end
