-- Attack: post 64 KB bodies in a loop (answered at once) to make the result, which records every
--         post, grow far past the memory limit: 1,606 posts, a 105 MB result and 264 MB of host
--         memory in 200 ms before the record budget.
-- Vector: host memory through what the result records.
-- Expected: posts past the request's record budget (a quarter of the memory limit) are refused
--           unsent with one line ("too much recorded: ..."): completed, body "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local body = string.rep("x", 65536)
  for n = 1, 100000 do
    local status, err = http.post("https://receipts.example.com/r", body)
    if not status then
      if type(err) == "string" and err:find("^too much recorded: ") and not err:find("\n") and n < 64 then
        content.body = "blocked"
      else
        content.body = "escaped: post " .. n .. ": " .. tostring(err)
      end
      return
    end
  end
  content.body = "escaped: 100000 posts recorded"
end
