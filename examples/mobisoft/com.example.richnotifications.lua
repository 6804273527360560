-- com.example.richnotifications: the Mobisoft "iOS 10 rich notifications" tutorial.
--
-- The tutorial's service extension reads an image (or GIF, or video) URL from the payload's
-- custom `pic_url` key, downloads it, attaches it to the notification and calls the content
-- handler; if the time runs out first, serviceExtensionTimeWillExpire delivers the best
-- attempt and the pending download is cancelled. This script does the same.

function didReceive(request, content)
  local url = content.userInfo.pic_url
  if url == nil then
    return                                   -- no picture: the notification stays as sent
  end
  if type(url) ~= "string" then
    log.warn("pic_url is a %s, not a URL", type(url))
    return
  end

  -- No `kinds` here: the tutorial takes images, GIFs and videos alike. download() types the
  -- file from its bytes (not from the URL or the server's Content-Type); content:attach then
  -- checks it against Apple's attachment rules, as UNNotificationAttachment does.
  local file, err = download(url)
  if not file then
    log.warn("no picture: %s", err)          -- "http 404: ...", "timeout: ...", "not allowed: ..."
    return
  end
  local attachment, attachErr = content:attach(file, { identifier = "pic" })
  if not attachment then
    log.warn("picture not attached: %s", attachErr)
  end
end

-- serviceExtensionTimeWillExpire: the download is cancelled by the host; what didReceive
-- left is delivered. A camera tells the reader there was a picture to see in the app.
function bestAttempt(content, reason)
  if reason.kind ~= "error" then
    content.body = content.body .. " 📷"
  end
end
