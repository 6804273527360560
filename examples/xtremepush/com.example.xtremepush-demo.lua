-- com.example.xtremepush-demo: Xtremepush rich push.
--
-- Xtremepush puts the picture of a rich push in the custom key `picture`, next to its other
-- keys (`u`, the URL the notification opens, is read by the app, not here). The service
-- extension downloads the picture and attaches it. Xtremepush's picture is an image, so this
-- script asks for images only and for no more than Apple's image limit.

local IMAGE_LIMIT = 10 * 1000 * 1000   -- 10 MB, UNNotificationAttachment's maximum for images

function didReceive(request, content)
  local picture = content.userInfo.picture
  if picture == nil or picture == "" then
    return                                          -- a plain push
  end
  if type(picture) ~= "string" then
    log.warn("picture is a %s, not a URL", type(picture))
    return
  end

  -- kinds = {"image"}: a sound or a video at that URL fails with "unsupported type" while
  -- downloading, instead of being attached where a picture was promised.
  local file, err = download(picture, { kinds = { "image" }, maxBytes = IMAGE_LIMIT })
  if not file then
    log.warn("picture not downloaded: %s", err)
    return
  end
  local attachment, attachErr = content:attach(file, { identifier = "picture" })
  if not attachment then
    log.warn("picture not attached: %s", attachErr)
    return
  end
  log.debug("attached %s (%d bytes) from %s", attachment.type, attachment.size, file.url)
end

-- The deadline came while the picture was loading: say so in the log, for the developer
-- reading the result; the notification itself goes out as it was sent.
function bestAttempt(content, reason)
  log.info("delivered without the picture: %s", reason.message)
end
