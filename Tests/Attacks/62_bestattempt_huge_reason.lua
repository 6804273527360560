-- didReceive fails with a 6 MB message that it also keeps, so the message cannot fit in
-- bestAttempt's state a second time: bestAttempt is still called, with the message cut, and
-- gets the request as its third argument.
function didReceive(request, content)
  local a = string.rep("x", 1000000)
  MESSAGE = a .. a .. a .. a .. a .. a
  error(MESSAGE, 0)
end

function bestAttempt(content, reason, request)
  content.body = reason.message:match("%(cut from %d+ bytes%)$") or ("whole: " .. #reason.message)
  content.subtitle = request and request.content.title or "no request"
end
