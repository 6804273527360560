-- com.example.appoxee-demo: the Mapp Engage (formerly Appoxee) rich push extension.
--
-- Mapp's service extension does two things before it calls the content handler:
--   1. Buttons in the message's language. The app registers one copy of each button category
--      per language (`apx_yes_no_open_en`, `apx_yes_no_open_de`, ...). The push names the base
--      category in `aps.category` and the message's language in `aps.lc`; the extension sets
--      the category to `<category>_<lc>` when that one is registered, else to `<category>_en`.
--   2. Media. It downloads the URL in the custom key `ios_apx_media` (image, GIF, audio or
--      video) and attaches it.
-- If the time runs out, it delivers the best attempt as it stands: there is no bestAttempt
-- here, and none is needed, because every change below is seen by the host as it is made.

-- The localized category rule. categories.localized(base, lc) returns, of `base_lc`,
-- `base_<language of lc>` and `base_en`, the first that is registered (else `base` itself),
-- and whether it found one.
local function localizeCategory(content)
  local base = content.categoryIdentifier
  local lc = content.userInfo.aps.lc
  if base == "" or type(lc) ~= "string" or lc == "" then
    return
  end
  local id, found = categories.localized(base, lc)
  content.categoryIdentifier = id
  if not found then
    log.warn("neither %s_%s nor %s_en is registered: the notification shows no buttons", base, lc, base)
  end
end

local function attachMedia(content)
  local url = content.userInfo.ios_apx_media
  if type(url) ~= "string" or url == "" then
    return
  end
  local file, err = download(url)
  if not file then
    log.warn("ios_apx_media not downloaded: %s", err)
    return
  end
  local attachment, attachErr = content:attach(file, { identifier = "ios_apx_media" })
  if not attachment then
    log.warn("ios_apx_media not attached: %s", attachErr)
  end
end

function didReceive(request, content)
  localizeCategory(content)   -- first: it is quick, and kept even if the download is cut off
  attachMedia(content)
end
