-- Attack: register the same category 20,000 times, each with 12 KB of titles: the result
--         recorded every registration (5,005 entries, a 62 MB result, 161 MB of host memory in
--         200 ms).
-- Vector: host memory through what the result records.
-- Expected: one entry per identifier, the last registration winning: completed, body
--           "blocked", registeredCategories ["same"].
function didReceive(request, content)
  content.title = "attacked"
  local title = string.rep("t", 4000)
  for n = 1, 20000 do
    local ok, err = pcall(categories.register, {
      identifier = "same",
      actions = { { identifier = "a", title = title }, { identifier = "b", title = title }, { identifier = "n", title = "n" .. n } },
    })
    if not ok then
      content.body = "escaped: registration " .. n .. " refused: " .. tostring(err)
      return
    end
  end
  content.body = "blocked"
end
