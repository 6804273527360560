-- pushscript.providers: what each push provider's own notification service extension does,
-- read from the payload. `providers.apply(request, content)` downloads and attaches the
-- provider's media, registers its buttons as the category its SDK would register, applies its
-- badge rule through the store, and makes its text changes; delivery receipts, when asked
-- for, are sent after delivery (`providers.afterDelivery`).
--
-- Each provider follows its own SDK's extension source; the five below were read from these
-- files (docs/script-api.md, "Bundled modules", says what differs and why):
--   Klaviyo    klaviyo-swift-sdk 5.3.1, Sources/KlaviyoSwiftExtension/KlaviyoExtension.swift,
--              KlaviyoActionButtonParser.swift, KlaviyoCategoryManager.swift
--   Airship    urbanairship/ios-library, AirshipExtensions/AirshipNotificationServiceExtension/
--              Source/UANotificationServiceExtension.swift, AirshipNotificationMutationProvider.swift,
--              MediaAttachmentPayload.swift (the Swift extension of SDK 17 and later)
--   Batch      Batch-iOS-SDK-Extension 4.0.0, Sources/Swift/Rich Notifications/RichNotificationHelper.swift,
--              Sources/Swift/Consts.swift
--   Pushwoosh  pushwoosh-ios-sdk 7.1.3, iOS_SDK/Pushwoosh/Pushwoosh/Public/PWNotificationServiceProcessor.m,
--              PushwooshCore/Public/PWMessage.m (isPushwooshMessage)
--   Iterable   swift-sdk 6.5.7, notification-extension/ITBNotificationServiceExtension.swift,
--              NotificationContentParser.swift
local providers = {}

local function isTable(v) return type(v) == "table" end
local function text(v) if type(v) == "string" and v ~= "" then return v end end
local function field(t, ...)
  for i = 1, select("#", ...) do
    if not isTable(t) then return nil end
    t = t[(select(i, ...))]
  end
  return t
end
local function integer(v)
  if math.type(v) == "integer" then return v end
  if math.type(v) == "float" and v == math.floor(v) then return math.tointeger(v) end
  if type(v) == "string" then
    local n = tonumber(v)
    if n and n == math.floor(n) then return math.tointeger(n) end
  end
end
-- A whole number as Swift's `as? Int` reads a JSON number: an integer, or a float with an
-- integral value; never a string.
local function wholeNumber(v)
  if math.type(v) == "integer" then return v end
  if math.type(v) == "float" and v == math.floor(v) and v >= math.mininteger and v < -(math.mininteger + 0.0) then
    return math.tointeger(v)
  end
end
-- A JSON object as a decoder reads one: a table whose keys are all strings (a JSON array's
-- are numbers).
local function isObject(v)
  if type(v) ~= "table" then return false end
  for k in pairs(v) do
    if type(k) ~= "string" then return false end
  end
  return true
end
-- A payload value that is there: not nil and not JSON's null (which decoders skip as absent).
local function present(v) return v ~= nil and v ~= json.null end
local function kindOf(typ)
  if type(typ) ~= "string" then return nil end
  typ = typ:lower()
  if typ:find("audio") or typ:find("mp3") or typ:find("wav") or typ:find("m4a") or typ:find("aif") then return "audio" end
  if typ:find("image") or typ:find("jpe?g") or typ:find("png") or typ:find("gif") then return "image" end
  if typ:find("video") or typ:find("mp4") or typ:find("mpe?g") or typ:find("avi") or typ:find("mov") then return "video" end
end
-- An action's icon: an SF Symbol (`kind` "system") or an image of the app ("template"), or
-- nil when the payload names none.
local function icon(kind, name)
  name = text(name)
  if name and (kind == "system" or kind == "template") then return { [kind] = name } end
end

local function reversedWhenTwo(actions)
  -- iOS shows the first action of two on the left; these SDKs swap them so that the first
  -- one sent is on the right.
  if #actions == 2 then return { actions[2], actions[1] } end
  return actions
end

-- The systems, in the order they are tried: a payload is the first one whose keys it holds.
local systems = {}
local order = {}
local function system(name, definition)
  definition.name = name
  systems[name] = definition
  order[#order + 1] = name
end

-- OneSignal: `custom` (or `os_data`) with the notification id `i`; `att` maps an attachment
-- identifier to its URL; `buttons` are `{i=, n=}`; `badge_inc` counts the badge on.
local function oneSignalData(info)
  if isTable(info.os_data) then return info.os_data end
  if isTable(info.custom) then return info.custom end
end
system("onesignal", {
  detect = function(info)
    local data = oneSignalData(info)
    return data ~= nil and text(data.i) ~= nil
  end,
  media = function(info)
    local att = isTable(info.os_data) and info.os_data.att or info.att
    local list = {}
    if isTable(att) then
      local keys = {}
      for key, url in pairs(att) do
        if type(key) == "string" and text(url) then keys[#keys + 1] = key end
      end
      table.sort(keys)
      for _, key in ipairs(keys) do
        local url = att[key]:match("^%s*(.-)%s*$")
        if url:lower():match("^https?:") then list[#list + 1] = { url = url, identifier = key } end
      end
    end
    return list
  end,
  buttons = function(info, content)
    local data = oneSignalData(info)
    local raw = isTable(info.os_data) and info.os_data.buttons or info.buttons
    if isTable(raw) and isTable(raw.o) then raw = raw.o end
    if not isTable(raw) or #raw == 0 then return nil end
    if content.categoryIdentifier ~= "" then
      return nil, "aps.category is set, so OneSignal's SDK adds no buttons (it keeps '" .. content.categoryIdentifier .. "')"
    end
    local actions = {}
    for _, b in ipairs(raw) do
      if isTable(b) and text(b.n) then
        -- icon_type "system" names an SF Symbol in path, "custom" an image of the app
        local kind = ({ system = "system", custom = "template" })[b.icon_type]
        actions[#actions + 1] = { identifier = text(b.i) or b.n, title = b.n, options = { "foreground" }, icon = icon(kind, b.path) }
      end
    end
    if #actions == 0 then return nil end
    return { identifier = "__onesignal__dynamic__" .. data.i, actions = reversedWhenTwo(actions), options = { "customDismissAction" } }
  end,
  badge = function(info)
    local inc = integer(field(oneSignalData(info), "badge_inc"))
    if inc and inc ~= 0 then return { increment = inc } end
    local badge = integer(field(info, "aps", "badge"))
    if badge then return { set = badge, keep = true } end
  end,
})

-- Airship: `com.urbanairship.media_attachment` with the media (`url`, one or a list, or `urls`,
-- a list of `{url, url_id}`), `thumbnail_id`, `options` (`crop`, `time`, `hidden`) and
-- `content` (the text to show instead). As UANotificationServiceExtension does: the media
-- attachment is read whole first (a key of the wrong shape, or a `crop` without all of x, y,
-- width and height in 0...1, and nothing of it is applied); the downloads run together; when
-- one fails nothing of the mutation is applied (no media, no text), and at expiry the original
-- content is delivered. `options.partialMedia = true` does better: the text first, and what
-- downloaded attached even when another download fails.
local AIRSHIP = "com.urbanairship.media_attachment"
-- {identifier, title, "fg" (opens the app) or "bg" (in the background, authentication
-- required), destructive}
local airshipCategories = {
  ua_yes_no_foreground = { { "yes", "Yes", "fg" }, { "no", "No", "bg" } },
  ua_yes_no_background = { { "yes", "Yes", "bg" }, { "no", "No", "bg" } },
  ua_shop_now = { { "shop_now", "Shop Now", "fg" } },
  ua_buy_now = { { "buy_now", "Buy Now", "fg" } },
  ua_follow = { { "follow", "Follow", "bg" } },
  ua_unfollow = { { "unfollow", "Unfollow", "bg", true } },
  ua_opt_in = { { "opt_in", "Opt-in", "bg" } },
  ua_opt_out = { { "opt_out", "Opt-out", "bg", true } },
  ua_remind_me_later = { { "remind", "Remind Me Later", "bg" } },
  ua_share = { { "share", "Share", "fg" } },
  ua_accept_decline_foreground = { { "accept", "Accept", "fg" }, { "decline", "Decline", "bg" } },
  ua_accept_decline_background = { { "accept", "Accept", "bg" }, { "decline", "Decline", "bg" } },
}
-- MediaAttachmentPayload as Airship's decoder reads it: {media = {{url=, identifier=}}, options=,
-- text=}, or nil and why it cannot be read (then the SDK applies nothing).
local function airshipPayload(m)
  local media = {}
  if present(m.urls) then
    if not isTable(m.urls) then return nil, "urls is not a list" end
    for i, entry in ipairs(m.urls) do
      -- each entry is a dictionary of strings: any other value and none of it is read
      if not isObject(entry) then return nil, "urls[" .. i .. "] is not an object" end
      for k, v in pairs(entry) do
        if type(v) ~= "string" then return nil, "urls[" .. i .. "]." .. tostring(k) .. " is not a string" end
      end
      -- an entry without a url is left out
      if text(entry.url) then media[#media + 1] = { url = entry.url, identifier = entry.url_id } end
    end
  elseif present(m.url) then
    local urls = m.url
    if type(urls) == "string" then urls = { urls } end
    if not isTable(urls) then return nil, "url is neither a string nor a list of strings" end
    for i, url in ipairs(urls) do
      if type(url) ~= "string" then return nil, "url[" .. i .. "] is not a string" end
      if url ~= "" then media[#media + 1] = { url = url } end
    end
  else
    return nil, "it has neither url nor urls"
  end
  local thumbnail = m.thumbnail_id
  if present(thumbnail) and type(thumbnail) ~= "string" then return nil, "thumbnail_id is not a string" end
  local options = {}
  local o = m.options
  if present(o) then
    if not isObject(o) then return nil, "options is not an object" end
    if present(o.time) then
      if type(o.time) ~= "number" then return nil, "options.time is not a number" end
      options.thumbnailTime = o.time
    end
    if present(o.hidden) and type(o.hidden) ~= "boolean" then return nil, "options.hidden is not a boolean" end
    if present(o.crop) then
      if not isObject(o.crop) then return nil, "options.crop is not an object" end
      for k, v in pairs(o.crop) do
        if type(v) ~= "number" then return nil, "options.crop." .. tostring(k) .. " is not a number" end
      end
      for _, k in ipairs({ "x", "y", "width", "height" }) do
        local v = o.crop[k]
        if v == nil or v < 0 or v > 1 then return nil, "options.crop." .. k .. " is not a number in 0...1" end
      end
      options.thumbnailClippingRect = { x = o.crop.x, y = o.crop.y, width = o.crop.width, height = o.crop.height }
    end
  end
  for _, entry in ipairs(media) do
    local attachOptions = {}
    for k, v in pairs(options) do attachOptions[k] = v end
    -- the thumbnail is hidden for every attachment but the one thumbnail_id names; `hidden` wins
    attachOptions.thumbnailHidden = present(thumbnail) and thumbnail ~= (entry.identifier or "")
    if present(o) and type(o.hidden) == "boolean" then attachOptions.thumbnailHidden = o.hidden end
    entry.options = attachOptions
  end
  local t
  if present(m.content) then
    if not isObject(m.content) then return nil, "content is not an object" end
    t = {}
    for _, f in ipairs({ "title", "subtitle", "body" }) do
      local v = m.content[f]
      if present(v) then
        if type(v) ~= "string" then return nil, "content." .. f .. " is not a string" end
        t[f] = v
      end
    end
  end
  return { media = media, text = t }
end
system("airship", {
  -- UNNotificationRequest.isAirship: the media attachment, the metadata or the send id `_`
  detect = function(info)
    return info[AIRSHIP] ~= nil or info["com.urbanairship.metadata"] ~= nil or info["_"] ~= nil
  end,
  media = function(info)
    local m = info[AIRSHIP]
    if not isObject(m) then return {} end
    local payload, why = airshipPayload(m)
    if not payload then return {}, "the media attachment cannot be read (" .. why .. "): nothing of it is applied, as Airship's SDK does" end
    return payload.media
  end,
  -- the interactive type arrives as `aps.category`; Airship's SDK registers its predefined
  -- `ua_*` categories at launch (UAUserNotificationCategories, with authentication required)
  buttons = function(info, content)
    local set = airshipCategories[content.categoryIdentifier]
    if not set or categories.has(content.categoryIdentifier) then return nil end
    local actions = {}
    for i, a in ipairs(set) do
      local options = {}
      if a[3] == "fg" then options[#options + 1] = "foreground" end
      if a[4] then options[#options + 1] = "destructive" end
      if a[3] == "bg" then options[#options + 1] = "authenticationRequired" end
      actions[i] = { identifier = a[1], title = a[2], options = options }
    end
    return { identifier = content.categoryIdentifier, actions = actions }
  end,
  text = function(info)
    local m = info[AIRSHIP]
    if not isObject(m) then return nil end
    local payload = airshipPayload(m)
    return payload and payload.text
  end,
  -- the mutation is applied whole, after every download: nothing before, nothing on a failure
  allOrNothing = true,
})

-- Braze: `ab` with the attachment `ab.att` (`url`, and `type` its file extension); buttons are
-- the categories Braze's SDK registers at launch (`ab_cat_*`).
local brazeCategories = {
  ab_cat_accept_decline = { { "ab_pb_accept", "Accept" }, { "ab_pb_decline", "Decline" } },
  ab_cat_yes_no = { { "ab_pb_yes", "Yes" }, { "ab_pb_no", "No" } },
  ab_cat_confirm_cancel = { { "ab_pb_confirm", "Confirm" }, { "ab_pb_cancel", "Cancel" } },
  ab_cat_more = { { "ab_pb_more", "More" } },
}
system("braze", {
  detect = function(info) return isTable(info.ab) end,
  media = function(info)
    local url = text(field(info, "ab", "att", "url"))
    if url then return { { url = url, identifier = "braze", kind = kindOf(field(info, "ab", "att", "type")) } } end
    return {}
  end,
  buttons = function(info, content)
    local set = brazeCategories[content.categoryIdentifier]
    if not set or categories.has(content.categoryIdentifier) then return nil end
    local actions = {}
    for i, a in ipairs(set) do
      -- the first button opens the app; the second closes the notification
      actions[i] = { identifier = a[1], title = a[2], options = i == 1 and { "foreground" } or {} }
    end
    return { identifier = content.categoryIdentifier, actions = actions }
  end,
})

-- Firebase Cloud Messaging: `fcm_options.image`.
system("firebase", {
  detect = function(info)
    return info["gcm.message_id"] ~= nil or info["google.c.a.e"] ~= nil or isTable(info.fcm_options)
  end,
  media = function(info)
    local url = text(field(info, "fcm_options", "image"))
    return url and { { url = url, identifier = "firebase" } } or {}
  end,
})

-- Iterable: `itbl` with `attachment-url` and `actionButtons`. As ITBNotificationServiceExtension
-- does: a payload that names its category keeps it; otherwise, with a `messageId`, a category
-- named by the message id is registered with the buttons (none when `actionButtons` is
-- missing: an empty category, still set) and set. The attachment's identifier is a new UUID
-- (the SDK adds the file's name to it).
-- NSNumber's boolValue: JSON's true and false, and a number (non-zero is true); anything else
-- is nil.
local function nsBool(v)
  if type(v) == "boolean" then return v end
  if type(v) == "number" then return v ~= 0 end
end
system("iterable", {
  detect = function(info) return isTable(info.itbl) end,
  media = function(info)
    local url = text(field(info, "itbl", "attachment-url"))
    return url and { { url = url } } or {}
  end,
  buttons = function(info, content)
    local itbl = info.itbl
    if content.categoryIdentifier ~= "" then return nil end
    local id = text(itbl.messageId)
    if not id then return nil end
    local raw = itbl.actionButtons
    local actions = {}
    for _, b in ipairs(isTable(raw) and raw or {}) do
      if isTable(b) and type(b.identifier) == "string" and type(b.title) == "string" then
        local buttonType = ({ default = "default", destructive = "destructive", textInput = "textInput" })[b.buttonType] or "default"
        local openApp = nsBool(b.openApp)
        if openApp == nil then openApp = true end
        local requiresUnlock = nsBool(b.requiresUnlock) or false
        local options = {}
        if buttonType == "destructive" then options[#options + 1] = "destructive" end
        if openApp then options[#options + 1] = "foreground" end
        if openApp or requiresUnlock then options[#options + 1] = "authenticationRequired" end
        -- actionIcon {iconType = "systemImage" or "templateImage", imageName =}: both, or no icon
        local actionIcon = isTable(b.actionIcon) and b.actionIcon or {}
        local kind = ({ systemImage = "system", templateImage = "template" })[actionIcon.iconType]
        local name = type(actionIcon.imageName) == "string" and actionIcon.imageName or nil
        local action = { identifier = b.identifier, title = b.title, options = options,
                         icon = (kind and name) and { [kind] = name } or nil }
        if buttonType == "textInput" then
          action.textInput = { buttonTitle = type(b.inputTitle) == "string" and b.inputTitle or "",
                               placeholder = type(b.inputPlaceholder) == "string" and b.inputPlaceholder or "" }
        end
        actions[#actions + 1] = action
      end
    end
    return { identifier = id, actions = actions }
  end,
})

-- CleverTap: `ct_mediaUrl` and `ct_mediaType` (image, gif, audio, video). Its
-- CTNotificationServiceExtension attaches nothing unless both keys are there. Its buttons are
-- categories the app registers (CTNotificationContent's `CTNotification`), named in
-- `aps.category`; no badge rule.
system("clevertap", {
  detect = function(info)
    if info["W$id"] ~= nil or info.wzrk_acct_id ~= nil or info.ct_mediaUrl ~= nil then return true end
    for key in pairs(info) do
      if type(key) == "string" and key:sub(1, 5) == "wzrk_" then return true end
    end
    return false
  end,
  media = function(info)
    local url = text(info.ct_mediaUrl)
    if not url then return {} end
    if info.ct_mediaType == nil then
      return {}, "ct_mediaUrl without ct_mediaType: not attached, as CleverTap's extension does"
    end
    return { { url = url, identifier = "clevertap", kind = kindOf(info.ct_mediaType) } }
  end,
})

-- Customer.io: `CIO.push.image`.
system("customerio", {
  detect = function(info) return isTable(info.CIO) end,
  media = function(info)
    local url = text(field(info, "CIO", "push", "image"))
    return url and { { url = url, identifier = "customerio" } } or {}
  end,
})

-- Pushwoosh: a push is Pushwoosh's when it has `pw_msg` (PWMessage isPushwooshMessage), and
-- only then does its extension do anything. `attachment` is the media (its identifier a new
-- UUID; the SDK adds the file's name to it). `aps.pw_badge` (a string, or a number read as
-- its text): "+N" adds to the stored count, "-N" subtracts down to 0, anything else sets the
-- count to the number NSString's integerValue reads from it (leading spaces, a sign, digits;
-- 0 when there are none).
-- NSString's integerValue: leading white space, an optional sign, then digits up to the first
-- other character; 0 without digits; past Int's range, Int's bound.
local function integerValue(s)
  local sign, digits = s:match("^%s*([+-]?)(%d*)")
  if digits == "" then return 0 end
  local n = 0
  for d in digits:gmatch("%d") do
    if n > (math.maxinteger - 9) // 10 then return sign == "-" and math.mininteger or math.maxinteger end
    n = n * 10 + tonumber(d)
  end
  return sign == "-" and -n or n
end
system("pushwoosh", {
  detect = function(info) return info.pw_msg ~= nil end,
  media = function(info)
    local url = info.attachment
    return type(url) == "string" and url ~= "" and { { url = url } } or {}
  end,
  badge = function(info)
    local raw = field(info, "aps", "pw_badge")
    if math.type(raw) == "integer" then raw = tostring(raw)
    elseif math.type(raw) == "float" then raw = string.format("%.17g", raw)
    elseif type(raw) == "boolean" then raw = raw and "1" or "0" end
    if type(raw) ~= "string" then return nil end
    local first = raw:sub(1, 1)
    local sign = (first == "+" or first == "-") and first or ""
    local amount = integerValue(sign ~= "" and raw:sub(2) or raw)
    local note
    if not raw:match("^%s*[+-]?%d+%s*$") then
      note = "aps.pw_badge '" .. raw .. "' is not N, +N or -N; read as " .. sign .. amount .. ", as Pushwoosh's SDK reads it"
    end
    if sign == "+" then return { increment = amount }, note end
    if sign == "-" then return { increment = -amount }, note end
    return { set = math.max(amount, 0) }, note
  end,
})

-- Batch: `com.batch.at` with `u` (the URL) and `t` (its type, the attachment's type hint);
-- Batch's RichNotificationHelper attaches nothing unless both are strings, under the
-- identifier "batch_rich_attachment".
system("batch", {
  detect = function(info) return isTable(info["com.batch"]) end,
  media = function(info)
    local at = field(info, "com.batch", "at")
    if not isTable(at) then return {} end
    if type(at.u) ~= "string" then return {} end
    if type(at.t) ~= "string" then
      return {}, "com.batch.at without its type (t): not attached, as Batch's extension does"
    end
    return { { url = at.u, identifier = "batch_rich_attachment", kind = kindOf(at.t) } }
  end,
})

-- Amazon Pinpoint: `data.pinpoint`, the media in `data.media-url`.
system("pinpoint", {
  detect = function(info) return isTable(field(info, "data", "pinpoint")) end,
  media = function(info)
    local url = text(field(info, "data", "media-url"))
    return url and { { url = url, identifier = "pinpoint" } } or {}
  end,
})

-- MoEngage: `moengage` with `media-attachment` and `media-type`. Its buttons are categories the
-- app registers (`registerForRemoteNotification(withCategories:)`, besides the SDK's own
-- `MOE_DISMISS_CATEGORY` and `MOE_PUSH_TEMPLATE`), named in `aps.category`.
system("moengage", {
  detect = function(info) return isTable(info.moengage) end,
  media = function(info)
    local url = text(field(info, "moengage", "media-attachment"))
    return url and { { url = url, identifier = "moengage", kind = kindOf(field(info, "moengage", "media-type")) } } or {}
  end,
})

-- Klaviyo: a push is Klaviyo's when its `body` has `_k` (a JSON string in real payloads). As
-- KlaviyoExtensionSDK does: `badge_config` and `badge_value` count the badge; the buttons of
-- `body.action_buttons` (each with `id`, `label` and `action`: "open_app" without a `url`,
-- "deep_link" with one) are registered, in order and opening the app, as the category
-- "com.klaviyo.button.<request identifier>" with a custom dismiss action, unless the push
-- names its own category; `rich-media` is attached (its identifier a new UUID).
local klaviyoActions = { open_app = true, deep_link = true }
system("klaviyo", {
  detect = function(info) return isTable(info.body) and info.body._k ~= nil end,
  media = function(info)
    local url = info["rich-media"]
    if type(url) ~= "string" then return {} end
    local typ = info["rich-media-type"]
    return { { url = url, kind = kindOf(type(typ) == "string" and typ or "jpg") } }
  end,
  buttons = function(info, content, request)
    if content.categoryIdentifier ~= "" then
      return nil, "aps.category is set, so Klaviyo's SDK adds no buttons (it keeps '" .. content.categoryIdentifier .. "')"
    end
    local raw = info.body.action_buttons
    if not isTable(raw) or #raw == 0 then return nil end
    local actions, skipped = {}, {}
    for i, b in ipairs(raw) do
      if not isTable(b) or type(b.id) ~= "string" or type(b.label) ~= "string" or not klaviyoActions[b.action] then
        skipped[#skipped + 1] = "button " .. i .. " lacks an id, a label or an action (open_app or deep_link)"
      elseif b.action == "open_app" and type(b.url) == "string" then
        skipped[#skipped + 1] = "button " .. i .. " (open_app) has a url"
      elseif b.action == "deep_link" and not text(b.url) then
        skipped[#skipped + 1] = "button " .. i .. " (deep_link) has no url"
      else
        actions[#actions + 1] = { identifier = b.id, title = b.label, options = { "foreground" } }
      end
    end
    local why = #skipped > 0 and (table.concat(skipped, "; ") .. ": skipped, as Klaviyo's SDK does") or nil
    if #actions == 0 then return nil, why end
    local suffix = request and text(request.identifier)
    if not suffix then return nil, "the request's identifier is needed to name Klaviyo's category" end
    return { identifier = "com.klaviyo.button." .. suffix, actions = actions, options = { "customDismissAction" } }, why
  end,
  -- KlaviyoExtensionSDK's handleBadge: `badge_config` "increment_one" adds one to the stored
  -- count; "set_count" and "set_property" set it to `badge_value` (a whole number), and clear
  -- the badge and the stored count without one; any other value does nothing.
  badge = function(info)
    local config = info.badge_config
    if type(config) ~= "string" then return nil end
    if config == "increment_one" then return { increment = 1 } end
    if config == "set_count" or config == "set_property" then
      local value = wholeNumber(info.badge_value)
      if not value then
        return { clear = true }, "badge_config " .. config .. " without a whole-number badge_value: the badge is cleared, as Klaviyo's SDK does"
      end
      if value < 0 then return nil, "badge_config " .. config .. " with badge_value " .. value .. " < 0: left alone" end
      return { set = value }
    end
    return nil, "badge_config '" .. config .. "' is not increment_one, set_count or set_property: nothing done, as Klaviyo's SDK does"
  end,
})

-- Mapp Engage rich push: `buttons` (a list, or a JSON string) with labels per language.
local function mappButtons(value)
  if type(value) == "string" then
    local decoded, err = json.decode(value)
    if decoded == nil then return nil, "buttons are not valid JSON (" .. tostring(err) .. ")" end
    value = decoded
  end
  if not isTable(value) then return nil end
  local list = {}
  for _, b in ipairs(value) do
    if isTable(b) and isTable(b.title) and next(b.title) ~= nil then
      local ok = true
      for language, label in pairs(b.title) do
        if type(language) ~= "string" or type(label) ~= "string" or label == "" then ok = false end
      end
      if ok then list[#list + 1] = b end
    end
  end
  return #list > 0 and list or nil
end
local function mappLanguage(buttons, lc)
  local count, languages = {}, {}
  for _, b in ipairs(buttons) do
    for language in pairs(b.title) do
      count[language] = (count[language] or 0) + 1
      if count[language] == #buttons then languages[#languages + 1] = language end
    end
  end
  table.sort(languages)
  local hasEnglish = false
  for _, l in ipairs(languages) do if l == "en" then hasEnglish = true end end
  return locale.best(languages) or (lc and locale.best(languages, { lc })) or (hasEnglish and "en") or languages[1] or "en"
end
local function mappMedia(info)
  local url = text(info.ios_apx_media)
  return url and { { url = url, identifier = "ios_apx_media" } } or {}
end
local function mappCategory(info, content)
  -- Mapp's predefined sets: `<category>_<lc>`, else `<category>_en`
  local lc = text(field(info, "aps", "lc"))
  if content.categoryIdentifier == "" or not lc then return nil end
  local id, found = categories.localized(content.categoryIdentifier, lc)
  if not found then
    return id, "neither " .. content.categoryIdentifier .. "_" .. lc .. " nor " .. content.categoryIdentifier .. "_en is registered"
  end
  return id
end
system("mapp-engage", {
  detect = function(info) return info.buttons ~= nil and (info.p ~= nil or info.ios_apx_media ~= nil or field(info, "aps", "lc") ~= nil) end,
  media = mappMedia,
  buttons = function(info, content)
    local buttons, err = mappButtons(info.buttons)
    if not buttons then return nil, err end
    local lc = text(field(info, "aps", "lc"))
    local language = mappLanguage(buttons, lc)
    local base = content.categoryIdentifier ~= "" and content.categoryIdentifier or "apx_custom_push"
    local p = info.p
    local messageId = (type(p) == "string" or math.type(p) == "integer") and tostring(p) or nil
    local id = messageId and (base .. "_" .. messageId .. "_" .. language) or (base .. "_" .. language)
    local actions = {}
    for i, b in ipairs(buttons) do
      local label = b.title[language] or b.title.en
      if not label then
        local keys = {}
        for k in pairs(b.title) do keys[#keys + 1] = k end
        table.sort(keys)
        label = b.title[keys[1]]
      end
      local options = {}
      if b.fgAction ~= nil then options[#options + 1] = "foreground" end
      if b.destructive == true then options[#options + 1] = "destructive" end
      actions[i] = { identifier = tostring(b.id or ("button_" .. i)), title = label, options = options }
    end
    return { identifier = id, actions = actions, reuse = true }
  end,
  category = function(info, content)
    if mappButtons(info.buttons) then return nil end
    return mappCategory(info, content)
  end,
})

-- Mapp Engage (Appoxee): `ios_apx_media`, and the `<category>_<lc>` rule.
system("appoxee", {
  detect = function(info)
    local category = field(info, "aps", "category")
    return info.ios_apx_media ~= nil or info.apx_dpl ~= nil
      or (type(category) == "string" and category:sub(1, 4) == "apx_" and field(info, "aps", "lc") ~= nil)
  end,
  media = mappMedia,
  category = mappCategory,
})

-- Xtremepush: `picture`, images only.
system("xtremepush", {
  detect = function(info) return info.picture ~= nil end,
  media = function(info)
    local url = text(info.picture)
    return url and { { url = url, identifier = "picture", kind = "image", only = true } } or {}
  end,
})

-- Mobisoft's tutorial: `pic_url`.
system("mobisoft", {
  detect = function(info) return info.pic_url ~= nil end,
  media = function(info)
    local url = text(info.pic_url)
    return url and { { url = url, identifier = "pic" } } or {}
  end,
})

-- Alibaba Cloud Mobile Push: `attachment`, and its `test_category` buttons registered by the app.
system("alibaba", {
  detect = function(info)
    return field(info, "aps", "category") == "test_category" or type(info.attachment) == "string"
  end,
  media = function(info)
    local url = text(info.attachment)
    return url and { { url = url, identifier = "attachment" } } or {}
  end,
})

-- Delivery receipts: what a provider's own extension posts to confirm that the notification
-- arrived, from the payload and what the app gives in `options.receipts.<provider>` (ids the
-- payload does not carry). Each returns `{url=, method=, body=, headers=}` or nil and why not.
local receipts = {}
local function need(o, provider, ...)
  for i = 1, select("#", ...) do
    local key = select(i, ...)
    if not text(o[key]) then return "options.receipts." .. provider .. "." .. key .. " is not given" end
  end
end
-- OneSignal's OneSignalReceiveReceiptsController: PUT notifications/<id>/report_received.
receipts.onesignal = function(info, o)
  local id = text(field(oneSignalData(info), "i"))
  if not id then return nil, "the payload has no notification id" end
  local missing = need(o, "onesignal", "appId")
  if missing then return nil, missing end
  return { method = "PUT", url = "https://api.onesignal.com/notifications/" .. id .. "/report_received",
           body = { app_id = o.appId, player_id = text(o.subscriptionId) or json.null, device_type = 0 } }
end
-- Customer.io's RichPushDeliveryTracker: the "delivered" metric as a "Report Delivery Event",
-- with the CDP API key as Basic authorization.
receipts.customerio = function(info, o)
  local id = text(info["CIO-Delivery-ID"])
  if not id then return nil, "the payload has no CIO-Delivery-ID" end
  local missing = need(o, "customerio", "cdpApiKey", "deviceToken")
  if missing then return nil, missing end
  local host = (o.region == "eu") and "https://cdp-eu.customer.io" or "https://cdp.customer.io"
  return { url = host .. "/v1/track", headers = { Authorization = "Basic " .. base64.encode(o.cdpApiKey .. ":") },
           body = { anonymousId = id, event = "Report Delivery Event",
                    properties = { recipient = o.deviceToken, metric = "delivered", deliveryId = id } } }
end
-- Pushwoosh's PWNotificationExtensionManager: messageDeliveryEvent with the message hash `p`.
receipts.pushwoosh = function(info, o)
  local hash = text(info.p)
  if not hash then return nil, "the payload has no message hash (p)" end
  local missing = need(o, "pushwoosh", "appCode", "hwid")
  if missing then return nil, missing end
  local request = { application = o.appCode, hwid = o.hwid, hash = hash, device_type = 1 }
  if text(o.userId) then request.userId = o.userId end
  return { url = "https://cp.pushwoosh.com/json/1.3/messageDeliveryEvent", body = { request = request } }
end

--- The provider whose payload `userInfo` is, in lower case, or nil.
function providers.detect(userInfo)
  if not isTable(userInfo) then return nil end
  for _, name in ipairs(order) do
    if systems[name].detect(userInfo) then return name end
  end
  return nil
end

--- The provider's media: a list of `{url=, identifier=, kind=, options=}` (empty when none),
--- and why there is none when the payload names media that is not attached.
function providers.media(userInfo)
  local name = providers.detect(userInfo)
  if not name or not systems[name].media then return {} end
  local list, why = systems[name].media(userInfo)
  return list, why
end

--- The category the provider's SDK would register for the payload, or nil (and why not).
--- `requestIdentifier` names Klaviyo's category (`request.identifier`).
function providers.buttons(userInfo, categoryIdentifier, requestIdentifier)
  local name = providers.detect(userInfo)
  if not name or not systems[name].buttons then return nil end
  local category = categoryIdentifier or text(field(userInfo, "aps", "category")) or ""
  return systems[name].buttons(userInfo, { categoryIdentifier = category }, { identifier = requestIdentifier })
end

--- The provider's badge rule: `{set=N}`, `{increment=N}` or `{clear=true}`, or nil (and why).
function providers.badge(userInfo)
  local name = providers.detect(userInfo)
  if not name or not systems[name].badge then return nil end
  return systems[name].badge(userInfo)
end

-- The types and largest sizes UNNotificationAttachment takes (MB as 1,000,000 bytes), to know
-- before attaching that every file of an all-or-nothing mutation will attach.
local attachable = {
  ["public.jpeg"] = 10e6, ["com.compuserve.gif"] = 10e6, ["public.png"] = 10e6,
  ["com.microsoft.waveform-audio"] = 5e6, ["public.aiff-audio"] = 5e6, ["public.mp3"] = 5e6, ["public.mpeg-4-audio"] = 5e6,
  ["public.mpeg"] = 50e6, ["public.mpeg-2-video"] = 50e6, ["public.mpeg-4"] = 50e6, ["public.avi"] = 50e6,
}

local function applyText(sys, info, content)
  if not sys.text then return end
  local t = sys.text(info)
  if not t then return end
  for _, f in ipairs({ "title", "subtitle", "body" }) do
    if t[f] then content[f] = t[f] end
  end
  log.debug("%s: text replaced", sys.name)
end

local function attach(sys, m, file, content)
  local attachOptions = { identifier = m.identifier }
  for k, v in pairs(m.options or {}) do attachOptions[k] = v end
  local attachment, err = content:attach(file, attachOptions)
  if attachment then
    log.debug("%s: attached %s (%s, %d bytes) as '%s'", sys.name, m.url, attachment.type, attachment.size, attachment.identifier)
  else
    log.warn("%s: media %s not attached: %s", sys.name, m.url, tostring(err))
  end
  return attachment ~= nil
end

-- `whole`: the provider's SDK applies its mutation whole or not at all (Airship): the files are
-- all downloaded and checked before any is attached, and the text (`withText`) is applied
-- after them.
local function applyMedia(sys, info, content, options, whole, withText)
  if not sys.media then return end
  local list, why = sys.media(info)
  if why then log.info("%s: %s", sys.name, why) end
  local urls = {}
  for i, m in ipairs(list) do urls[i] = m.url end
  local files, errors = {}, {}
  if #urls > 0 then files, errors = downloadAll(urls, { timeout = options.timeout }) end
  if whole then
    local failed = false
    for i, m in ipairs(list) do
      local file = files[i]
      if not file then
        log.warn("%s: media %s not downloaded: %s", sys.name, m.url, tostring(errors[i]))
        failed = true
      elseif not attachable[file.type] or file.size > attachable[file.type] then
        log.warn("%s: media %s (%s, %d bytes) cannot be attached", sys.name, m.url, tostring(file.type), file.size)
        failed = true
      end
    end
    if failed then
      log.warn("%s: nothing of the media attachment applied (no media, no text), as its SDK does; options.partialMedia keeps what worked", sys.name)
      return
    end
    for i, m in ipairs(list) do attach(sys, m, files[i], content) end
    if withText then applyText(sys, info, content) end
    return
  end
  for i, m in ipairs(list) do
    local file = files[i]
    if not file then
      log.warn("%s: media %s not downloaded: %s", sys.name, m.url, tostring(errors[i]))
    elseif m.only and kindOf(file.mime) ~= m.kind then
      log.warn("%s: media %s is %s, not %s: not attached", sys.name, m.url, tostring(file.type), m.kind)
    else
      attach(sys, m, file, content)
    end
  end
end

local function applyButtons(sys, info, content, request)
  if sys.category then
    local id, problem = sys.category(info, content)
    if problem then log.warn("%s: %s", sys.name, problem) end
    if id and id ~= content.categoryIdentifier then
      log.debug("%s: category %s", sys.name, id)
      content.categoryIdentifier = id
    end
  end
  if not sys.buttons then return end
  local category, problem = sys.buttons(info, content, request)
  if problem then log.info("%s: %s", sys.name, problem) end
  if not category then return end
  if category.reuse and categories.has(category.identifier) then
    log.debug("%s: category %s already registered", sys.name, category.identifier)
  else
    category.reuse = nil
    categories.register(category)
    local titles = {}
    for i, a in ipairs(category.actions) do titles[i] = a.title end
    log.debug("%s: registered category %s: %s", sys.name, category.identifier, #titles > 0 and table.concat(titles, " | ") or "no buttons")
  end
  content.categoryIdentifier = category.identifier
end

-- The largest count a badge rule keeps (a 32-bit NSInteger's largest): a hostile payload's
-- "+9999…" never leaves a count past it, or a float, in the store.
local BADGE_MAX = 2147483647

local function applyBadge(sys, info, content, options)
  if not sys.badge then return end
  local rule, problem = sys.badge(info)
  if problem then log.warn("%s: %s", sys.name, problem) end
  if not rule then return end
  local key = options.badgeKey or "badge"
  if rule.clear then
    store.set(key, nil)
    content.badge = nil
    log.debug("%s: badge cleared", sys.name)
  elseif rule.set then
    local count = math.min(rule.set, BADGE_MAX)
    store.set(key, count)
    if not rule.keep then content.badge = count end
    log.debug("%s: badge set to %d", sys.name, count)
  else
    -- one atomic step, so that extensions sharing the store never lose a count
    local count = store.increment(key, rule.increment, { min = 0, max = BADGE_MAX })
    content.badge = count
    log.debug("%s: badge %+d -> %d", sys.name, rule.increment, count)
  end
end

-- The receipts `apply` noted in this request, sent by `providers.afterDelivery` once the content
-- has been delivered. The module's chunk runs again in every request, so this list is the
-- request's own.
local pending = {}

local function sendReceipt(entry)
  local receipt = entry.receipt
  local status, answer = http.post(receipt.url, json.encode(receipt.body),
    { method = receipt.method, headers = receipt.headers, timeout = entry.timeout })
  if status == nil and answer:find("^not allowed: the host does not allow") then
    log.debug("%s: delivery receipt not sent: %s", entry.name, answer)
  elseif status == nil then
    log.warn("%s: delivery receipt failed: %s", entry.name, answer)
  elseif status >= 300 then
    log.warn("%s: delivery receipt answered %d", entry.name, status)
  else
    log.debug("%s: delivery receipt sent (%d)", entry.name, status)
  end
end

--- Sends the delivery receipts `apply` noted, after the content was delivered. Requiring the
--- module makes it the script's `afterDelivery` when the script has none; `apply` calls it
--- after the script's own `afterDelivery` when the script has one. Each receipt is sent once.
function providers.afterDelivery(request, content)
  if #pending == 0 then return end
  local list = pending
  pending = {}
  for _, entry in ipairs(list) do
    local ok, err = pcall(sendReceipt, entry)
    if not ok then log.warn("%s: delivery receipt failed: %s", entry.name, tostring(err)) end
  end
end

-- Makes sure the noted receipts are sent after delivery: `providers.afterDelivery` is the
-- script's `afterDelivery` (a global of the request's environment, which this module shares),
-- or runs after the script's own.
local chained
local function sendAfterDelivery()
  local own = afterDelivery
  if own == providers.afterDelivery or (chained and own == chained) then return end
  if own == nil then
    afterDelivery = providers.afterDelivery
    return
  end
  chained = function(request, content)
    local ok, err = pcall(own, request, content)
    providers.afterDelivery(request, content)
    if not ok then error(err, 0) end
  end
  afterDelivery = chained
end

local function applyReceipt(sys, info, content, options)
  local make = receipts[sys.name]
  if not make then return end
  if not options.receipts then
    log.debug("%s: delivery receipt not sent: not asked (options.receipts)", sys.name)
    return
  end
  local given = isTable(options.receipts) and options.receipts[sys.name] or {}
  local receipt, why = make(info, isTable(given) and given or {})
  if not receipt then
    log.debug("%s: delivery receipt not sent: %s", sys.name, why)
    return
  end
  pending[#pending + 1] = { name = sys.name, receipt = receipt, timeout = options.receiptTimeout or 3 }
  sendAfterDelivery()
  log.debug("%s: delivery receipt to be sent after delivery", sys.name)
end

local function step(name, sys, f, ...)
  local ok, err = pcall(f, sys, ...)
  if not ok then log.warn("%s: %s failed: %s", sys.name, name, tostring(err)) end
end

--- Does what the provider's own extension does; returns its name, or nil.
function providers.apply(request, content, options)
  options = options or {}
  local info = content.userInfo
  local name = providers.detect(info)
  if not name then
    log.debug("providers: no known provider in the payload")
    return nil
  end
  local sys = systems[name]
  log.debug("providers: %s", name)
  -- Airship's SDK applies its media and text whole, after the downloads, or not at all
  local whole = sys.allOrNothing and not options.partialMedia
  -- quick parts first, so a deadline during a download keeps them
  if options.text ~= false and not (whole and options.media ~= false) then step("text", sys, applyText, info, content) end
  if options.buttons ~= false then step("buttons", sys, applyButtons, info, content, request) end
  if options.badge ~= false then step("badge", sys, applyBadge, info, content, options) end
  -- with `whole`, the text comes with the media
  if options.media ~= false then step("media", sys, applyMedia, info, content, options, whole, options.text ~= false) end
  -- noted now, sent after delivery
  step("receipt", sys, applyReceipt, info, content, options)
  return name
end

-- A script that defines no `afterDelivery` gets this module's: the host knows a script's
-- handlers once its chunk has run, which is when a `require` at the script's top runs this.
if afterDelivery == nil then afterDelivery = providers.afterDelivery end

--- The names `detect` can return, in the order they are tried.
function providers.names()
  local list = {}
  for i, n in ipairs(order) do list[i] = n end
  return list
end

return providers
