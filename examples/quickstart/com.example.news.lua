-- com.example.news: the quick-start script.
--
-- A news app's notification service extension, written as a PushScript script. It shows the
-- three things most extensions do:
--   1. rewrite the text from data in the payload (the section goes in front of the title),
--   2. keep a count for the app icon's badge (iOS has no "add one" for badges; the store does),
--   3. download a picture and attach it, so iOS shows it in the notification.
--
-- Try it from the repository's root (the --media option answers the picture's URL from a file,
-- so no network is needed):
--   swift run pushscript run examples/quickstart/com.example.news.lua examples/quickstart/payload.json \
--     --media https://cdn.example.com/pic.jpg=examples/quickstart/media/pic.jpg

-- didReceive is Apple's didReceive(_:withContentHandler:). `request` is read-only: the
-- original content, the app and the device's languages. `content` is the mutable copy
-- (bestAttemptContent on iOS). Returning from didReceive delivers `content`.
function didReceive(request, content)
  local info = content.userInfo   -- the whole payload, `aps` included

  -- 1. "Sport: Late goal sends Lions through". Strings from the payload may be missing or of
  --    another type, so check before using them.
  if type(info.section) == "string" and info.section ~= "" then
    content.title = info.section .. ": " .. content.title
  end

  -- 2. One more unread story. store.increment is atomic and the store outlives the request,
  --    like a count kept in the App Group's shared defaults.
  content.badge = store.increment("unread")

  -- 3. The picture. download() streams the file to disk and types it from its bytes;
  --    kinds = {"image"} refuses anything that is not a JPEG, PNG or GIF.
  local url = info.pic_url
  if type(url) ~= "string" then
    return                         -- a text-only story: nothing more to do
  end
  local file, err = download(url, { kinds = { "image" } })
  if not file then
    -- err starts with the reason: "http 404", "timeout", "unsupported type", "not allowed"...
    log.warn("no picture: %s", err)
    return
  end
  local attachment, attachErr = content:attach(file, { identifier = "picture" })
  if not attachment then
    log.warn("picture not attached: %s", attachErr)
  end
end

-- bestAttempt is Apple's serviceExtensionTimeWillExpire: it runs when didReceive could not
-- finish (the deadline came during a slow download, an error, a limit). Whatever didReceive
-- already wrote (the title, the badge) is kept; here we only hint that a picture was coming.
function bestAttempt(content, reason)
  if reason.kind == "time" then
    content.body = content.body .. " 📷"
  end
end
