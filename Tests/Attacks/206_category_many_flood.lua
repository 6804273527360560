-- Attack: register thousands of distinct categories of 8 KB each: the result recorded all of
--         them (2,366 in 200 ms, a 29 MB result).
-- Vector: host memory through what the result records.
-- Expected: registrations past the record budget raise one line ("categories.register: too
--           much recorded: ..."), the app's categories unchanged by them: completed, body
--           "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local title = string.rep("t", 4000)
  for n = 1, 10000 do
    local ok, err = pcall(categories.register, {
      identifier = "id" .. n, actions = { { identifier = "a", title = title }, { identifier = "b", title = title } },
    })
    if not ok then
      if type(err) == "string" and err:find("categories.register: too much recorded: ", 1, true) and not err:find("\n") and n < 400 then
        content.body = "blocked"
      else
        content.body = "escaped: registration " .. n .. ": " .. tostring(err)
      end
      return
    end
  end
  content.body = "escaped: 10000 categories recorded"
end
