-- Attack: register hundreds of categories, each with several actions, to grow the host's
-- registry (and its state file) without bound.
-- Vector: host memory through categories.register.
-- Expected: the host keeps the newest 128 registered categories and logs what it removes; the
-- log stays within its bounds: completed, body "128".
function didReceive(request, content)
  content.title = "attacked"
  for i = 1, 600 do
    categories.register{identifier = "flood" .. i, actions = {
      {identifier = "a", title = "A"}, {identifier = "b", title = "B"}, {identifier = "c", title = "C"},
    }}
  end
  content.body = tostring(#categories.list())
end
