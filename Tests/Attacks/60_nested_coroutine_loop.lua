-- A loop three wrapped coroutines deep: each coroutine has its own hook, so the limit must
-- reach the one that is running, not only the main thread.
function didReceive(request, content)
  content.title = "attacked"
  local function deep(n)
    if n == 0 then
      while true do end
    end
    return coroutine.wrap(function() return deep(n - 1) end)()
  end
  deep(3)
  content.body = "survived"
end
