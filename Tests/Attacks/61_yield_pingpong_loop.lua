-- Control passes back and forth between the main thread and a coroutine forever, so the limit
-- can come while either runs; both must stop, and pcall cannot keep either going.
function didReceive(request, content)
  content.title = "attacked"
  local co = coroutine.wrap(function()
    while true do
      for i = 1, 100 do end
      coroutine.yield()
    end
  end)
  while true do
    pcall(co)
    for i = 1, 100 do end
  end
  content.body = "survived"
end
