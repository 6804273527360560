-- Attack (cosmetic): download(url, {"image"}) passes the kinds as a positional entry of the
--         options table. It was ignored silently, so the download ran unrestricted, while an
--         unknown named option raises.
-- Vector: an option table the host reads only by name.
-- Expected: the call raises an error naming the positional entry; completed, body "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local ok, err = pcall(download, "https://cdn.example.com/a.png", { "image" })
  if not ok and tostring(err):find("positional", 1, true) then content.body = "blocked" else content.body = "escaped: " .. tostring(err) end
end
