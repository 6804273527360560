-- Attack: attach one downloaded file again and again with a 60 KB identifier: every attachment
--         and its options went into the result (850 in 200 ms, a 51 MB result, 162 MB of host
--         memory).
-- Vector: host memory through what the result records.
-- Expected: attachments past the record budget are refused with one line (nil, "too much
--           recorded: ..."): completed, body "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local file = assert(download("https://cdn.example.com/pic.jpg"))
  local id = string.rep("i", 60000)
  for n = 1, 10000 do
    local a, err = content:attach(file, { identifier = id .. n })
    if not a then
      if type(err) == "string" and err:find("^too much recorded: ") and not err:find("\n") and n < 64 then
        content.body = "blocked"
      else
        content.body = "escaped: attachment " .. n .. ": " .. tostring(err)
      end
      return
    end
  end
  content.body = "escaped: 10000 attachments recorded"
end
