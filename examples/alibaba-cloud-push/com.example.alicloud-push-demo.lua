-- com.example.alicloud-push-demo: Alibaba Cloud Mobile Push (EMAS Push) on iOS 10 and later.
--
-- Alibaba's advanced push API fills the standard `aps` fields: alert title, subtitle and body,
-- badge, sound, category and mutable-content; the app's own key-value pairs
-- (iOSExtParameters) sit next to `aps`. PushScript hands all of them to the script as
-- `content` fields and `content.userInfo`. This script:
--   1. checks the button category: Alibaba's guide has the app register `test_category`
--      with the custom dismiss action, so that a deleted notification reaches the app and the
--      SDK can report it;
--   2. keeps the badge count on the device: a push with `aps.badge` sets the count, a push
--      without one adds one to it (what the server's badge auto-increment does, without the
--      app having to sync its count back);
--   3. attaches the picture named by the app's own `attachment` parameter, if any.

local function checkCategory(content)
  local id = content.categoryIdentifier
  if id == "" then
    return
  end
  local category = categories.get(id)      -- the same shape categories.register takes
  if category == nil then
    log.warn("category %s is not registered: the notification shows no buttons", id)
    return
  end
  for _, option in ipairs(category.options) do
    if option == "customDismissAction" then
      return
    end
  end
  log.warn("category %s has no customDismissAction: deleting the notification is not reported", id)
end

local function countBadge(content)
  if content.badge ~= nil then
    store.set("badge", content.badge)        -- the server's number wins; count on from it
  else
    content.badge = store.increment("badge")
  end
end

local function attachPicture(content)
  local url = content.userInfo.attachment
  if type(url) ~= "string" or url == "" then
    return
  end
  local file, err = download(url, { kinds = { "image", "video", "audio" } })
  if not file then
    log.warn("attachment not downloaded: %s", err)
    return
  end
  local attachment, attachErr = content:attach(file, { identifier = "attachment" })
  if not attachment then
    log.warn("attachment not attached: %s", attachErr)
  end
end

function didReceive(request, content)
  checkCategory(content)
  countBadge(content)      -- before the download, so a deadline during it keeps the count
  attachPicture(content)
end
