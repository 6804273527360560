-- Attack: wait in a download that takes 5 s when the system's time runs out.
-- Vector: liveness: the system's deadline (expireMs 100) while the script waits in a host call.
-- Expected: the download is cancelled and bestAttempt runs: fallback (time), the system's time
--           in the message, bestAttempt's body, no attachment.
function didReceive(request, content)
  content.title = "attacked"
  local file = download("https://cdn.example.com/slow.jpg")
  if file then content:attach(file) end
  content.body = "survived"
end

function bestAttempt(content, reason)
  content.body = "best " .. reason.kind
end
