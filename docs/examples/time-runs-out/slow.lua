-- The text is ready at once; the picture may be slow. The download gives up after 0.5 s
-- of its own (err "timeout: ..."), and the notification goes out without the picture.
-- When the request's deadline comes first, didReceive is stopped where it is and
-- bestAttempt (serviceExtensionTimeWillExpire) gets the content as didReceive left it:
-- the new title is kept, and the body says a picture is waiting in the app.
function didReceive(request, content)
  content.title = "Live: " .. content.title
  local file, err = download(content.userInfo.pic_url, { kinds = { "image" }, timeout = 0.5 })
  if file then content:attach(file) else log.warn("no picture: %s", err) end
end

function bestAttempt(content, reason)
  if reason.kind == "time" then
    content.body = content.body .. " (picture in the app)"
  end
end
