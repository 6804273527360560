-- Attack: two modules that require each other while they load, to recurse until the C stack
--         or the host breaks.
-- Vector: availability (unbounded recursion through a host function).
-- Expected: the second require of a module that is still loading raises "requires itself while
--           it loads"; the script catches it and goes on: completed, body "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local ok, err = pcall(require, "120_modules.loop_a")
  if not ok and tostring(err):find("module '120_modules.loop_a' requires itself while it loads", 1, true) then
    -- the failed module is not cached: requiring it again fails the same way, not with a loop of its own
    local again, err2 = pcall(require, "120_modules.loop_a")
    content.body = (not again and tostring(err2):find("requires itself", 1, true)) and "blocked" or ("second try: " .. tostring(err2))
  else
    content.body = "escaped: " .. tostring(ok) .. " " .. tostring(err)
  end
end
