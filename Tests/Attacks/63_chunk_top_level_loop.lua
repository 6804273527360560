-- The chunk itself never ends: didReceive never starts, so the request falls back as load with
-- the original content, and bestAttempt (defined first) is not run from a fresh copy.
function bestAttempt(content, reason)
  content.title = "best attempt"
end

store.increment("loads")
while true do end

function didReceive(request, content)
  content.title = "attacked"
end
