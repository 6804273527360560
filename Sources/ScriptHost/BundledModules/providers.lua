-- pushscript.providers: what each push provider's own notification service extension does,
-- read from the payload. `providers.apply(request, content)` downloads and attaches the
-- provider's media, registers its buttons as the category its SDK would register, applies its
-- badge rule through the store, and makes its text changes.
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

-- Airship: `com.urbanairship.media_attachment` with `url` (one or a list), `options` (`crop`,
-- `time`, `hidden`) and `content` (the text to show instead).
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
system("airship", {
  detect = function(info)
    return info[AIRSHIP] ~= nil or info["com.urbanairship.metadata"] ~= nil
  end,
  media = function(info)
    local m = info[AIRSHIP]
    if not isTable(m) then return {} end
    local urls = m.url
    if type(urls) == "string" then urls = { urls } end
    local options = {}
    local o = m.options
    if isTable(o) then
      local crop = o.crop
      if isTable(crop) then
        options.thumbnailClippingRect = { x = crop.x or 0, y = crop.y or 0, width = crop.width or 1, height = crop.height or 1 }
      end
      if type(o.time) == "number" then options.thumbnailTime = o.time end
      if type(o.hidden) == "boolean" then options.thumbnailHidden = o.hidden end
    end
    local list = {}
    for i, url in ipairs(isTable(urls) and urls or {}) do
      if text(url) then list[#list + 1] = { url = url, identifier = "airship-" .. i, options = options } end
    end
    return list
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
    local c = field(info, AIRSHIP, "content")
    if isTable(c) then return { title = text(c.title), subtitle = text(c.subtitle), body = text(c.body) } end
  end,
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

-- Iterable: `itbl` with `attachment-url` and `actionButtons`; the category is named for the
-- message id, and only when the payload names no category.
system("iterable", {
  detect = function(info) return isTable(info.itbl) end,
  media = function(info)
    local url = text(field(info, "itbl", "attachment-url"))
    return url and { { url = url, identifier = "iterable" } } or {}
  end,
  buttons = function(info, content)
    local itbl = info.itbl
    if content.categoryIdentifier ~= "" then return nil end
    local id = text(itbl.messageId)
    local raw = itbl.actionButtons
    if not id or not isTable(raw) then return nil end
    local actions = {}
    for _, b in ipairs(raw) do
      if isTable(b) and text(b.identifier) and type(b.title) == "string" then
        local options = {}
        local openApp = b.openApp ~= false
        if b.buttonType == "destructive" then options[#options + 1] = "destructive" end
        if openApp then options[#options + 1] = "foreground" end
        if openApp or b.requiresUnlock == true then options[#options + 1] = "authenticationRequired" end
        -- actionIcon {iconType = "systemImage" or "templateImage", imageName =}
        local actionIcon = isTable(b.actionIcon) and b.actionIcon or {}
        local kind = ({ systemImage = "system", templateImage = "template" })[actionIcon.iconType]
        local action = { identifier = b.identifier, title = b.title, options = options, icon = icon(kind, actionIcon.imageName) }
        if b.buttonType == "textInput" then
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

-- Pushwoosh: `attachment`; `aps.pw_badge`: "+N" adds, "-N" subtracts, "N" sets.
system("pushwoosh", {
  detect = function(info) return info.pw_msg ~= nil or field(info, "aps", "pw_badge") ~= nil end,
  media = function(info)
    local url = text(info.attachment)
    return url and { { url = url, identifier = "pushwoosh" } } or {}
  end,
  badge = function(info)
    local raw = field(info, "aps", "pw_badge")
    if math.type(raw) == "integer" then raw = tostring(raw) end
    if type(raw) ~= "string" then return nil end
    local sign, digits = raw:match("^%s*([+-]?)(%d+)%s*$")
    if not digits then return nil, "aps.pw_badge '" .. raw .. "' is not N, +N or -N" end
    if #digits > 9 then return nil, "aps.pw_badge '" .. raw .. "' is too large" end
    local n = math.tointeger(tonumber(digits))
    if sign == "+" then return { increment = n } end
    if sign == "-" then return { increment = -n } end
    return { set = n }
  end,
})

-- Batch: `com.batch.at` with `u` (the URL) and `t` (its type).
system("batch", {
  detect = function(info) return isTable(info["com.batch"]) end,
  media = function(info)
    local url = text(field(info, "com.batch", "at", "u"))
    return url and { { url = url, identifier = "batch", kind = kindOf(field(info, "com.batch", "at", "t")) } } or {}
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

-- Klaviyo: `body._k`; `rich-media` (with `rich-media-type`); `body.action_buttons`
-- `{id=, label=}` become the category `com.klaviyo.dynamic.<_k>`; `badge_config` and
-- `badge_value` count the badge.
system("klaviyo", {
  detect = function(info) return text(field(info, "body", "_k")) ~= nil end,
  media = function(info)
    local url = text(info["rich-media"])
    return url and { { url = url, identifier = "klaviyo", kind = kindOf(info["rich-media-type"]) } } or {}
  end,
  buttons = function(info)
    local raw = field(info, "body", "action_buttons")
    if not isTable(raw) then return nil end
    local actions = {}
    for _, b in ipairs(raw) do
      if isTable(b) and text(b.id) and text(b.label) then
        -- icon: an SF Symbol's name
        actions[#actions + 1] = { identifier = b.id, title = b.label, options = { "foreground" }, icon = icon("system", b.icon) }
      end
    end
    if #actions == 0 then return nil end
    return { identifier = "com.klaviyo.dynamic." .. info.body._k, actions = reversedWhenTwo(actions) }
  end,
  -- KlaviyoExtensionSDK's handleBadge: `badge_config` "increment_one" adds one to the stored
  -- count; "set_count" and "set_property" set it to `badge_value`; any other value does nothing.
  badge = function(info)
    local config = info.badge_config
    if config == nil then return nil end
    if config == "increment_one" then return { increment = 1 } end
    if config == "set_count" or config == "set_property" then
      local value = integer(info.badge_value)
      if not value or value < 0 then return nil, "badge_config " .. config .. " without an integer badge_value >= 0" end
      return { set = value }
    end
    return nil, "badge_config '" .. tostring(config) .. "' is not increment_one, set_count or set_property"
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

--- The provider's media: a list of `{url=, identifier=, kind=, options=}` (empty when none).
function providers.media(userInfo)
  local name = providers.detect(userInfo)
  if not name or not systems[name].media then return {} end
  return (systems[name].media(userInfo))
end

--- The category the provider's SDK would register for the payload, or nil (and why not).
function providers.buttons(userInfo, categoryIdentifier)
  local name = providers.detect(userInfo)
  if not name or not systems[name].buttons then return nil end
  local category = categoryIdentifier or text(field(userInfo, "aps", "category")) or ""
  return systems[name].buttons(userInfo, { categoryIdentifier = category })
end

--- The provider's badge rule: `{set=N}` or `{increment=N}`, or nil.
function providers.badge(userInfo)
  local name = providers.detect(userInfo)
  if not name or not systems[name].badge then return nil end
  return systems[name].badge(userInfo)
end

local function applyMedia(sys, info, content, options)
  if not sys.media then return end
  local list, why = sys.media(info)
  if why then log.info("%s: %s", sys.name, why) end
  if #list == 0 then return end
  local urls = {}
  for i, m in ipairs(list) do urls[i] = m.url end
  local downloadOptions = { timeout = options.timeout }
  local files, errors = downloadAll(urls, downloadOptions)
  for i, m in ipairs(list) do
    local file = files[i]
    if not file then
      log.warn("%s: media %s not downloaded: %s", sys.name, m.url, tostring(errors[i]))
    elseif m.only and kindOf(file.mime) ~= m.kind then
      log.warn("%s: media %s is %s, not %s: not attached", sys.name, m.url, tostring(file.type), m.kind)
    else
      local attachOptions = { identifier = m.identifier }
      for k, v in pairs(m.options or {}) do attachOptions[k] = v end
      local attachment, err = content:attach(file, attachOptions)
      if attachment then
        log.debug("%s: attached %s (%s, %d bytes) as '%s'", sys.name, m.url, attachment.type, attachment.size, attachment.identifier)
      else
        log.warn("%s: media %s not attached: %s", sys.name, m.url, tostring(err))
      end
    end
  end
end

local function applyButtons(sys, info, content)
  if sys.category then
    local id, problem = sys.category(info, content)
    if problem then log.warn("%s: %s", sys.name, problem) end
    if id and id ~= content.categoryIdentifier then
      log.debug("%s: category %s", sys.name, id)
      content.categoryIdentifier = id
    end
  end
  if not sys.buttons then return end
  local category, problem = sys.buttons(info, content)
  if problem then log.info("%s: %s", sys.name, problem) end
  if not category then return end
  if category.reuse and categories.has(category.identifier) then
    log.debug("%s: category %s already registered", sys.name, category.identifier)
  else
    category.reuse = nil
    categories.register(category)
    local titles = {}
    for i, a in ipairs(category.actions) do titles[i] = a.title end
    log.debug("%s: registered category %s: %s", sys.name, category.identifier, table.concat(titles, " | "))
  end
  content.categoryIdentifier = category.identifier
end

local function applyBadge(sys, info, content, options)
  if not sys.badge then return end
  local rule, problem = sys.badge(info)
  if problem then log.warn("%s: %s", sys.name, problem) end
  if not rule then return end
  local key = options.badgeKey or "badge"
  if rule.set then
    store.set(key, rule.set)
    if not rule.keep then content.badge = rule.set end
    log.debug("%s: badge set to %d", sys.name, rule.set)
  else
    -- one atomic step, so that extensions sharing the store never lose a count
    local count = store.increment(key, rule.increment, { min = 0 })
    content.badge = count
    log.debug("%s: badge %+d -> %d", sys.name, rule.increment, count)
  end
end

local function applyText(sys, info, content)
  if not sys.text then return end
  local t = sys.text(info)
  if not t then return end
  for _, f in ipairs({ "title", "subtitle", "body" }) do
    if t[f] then content[f] = t[f] end
  end
  log.debug("%s: text replaced", sys.name)
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
  local status, answer = http.post(receipt.url, json.encode(receipt.body),
    { method = receipt.method, headers = receipt.headers, timeout = options.receiptTimeout or 3 })
  if status == nil and answer:find("^not allowed: the host does not allow") then
    log.debug("%s: delivery receipt not sent: %s", sys.name, answer)
  elseif status == nil then
    log.warn("%s: delivery receipt failed: %s", sys.name, answer)
  elseif status >= 300 then
    log.warn("%s: delivery receipt answered %d", sys.name, status)
  else
    log.debug("%s: delivery receipt sent (%d)", sys.name, status)
  end
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
  -- quick parts first, so a deadline during a download keeps them
  if options.text ~= false then step("text", sys, applyText, info, content) end
  if options.buttons ~= false then step("buttons", sys, applyButtons, info, content) end
  if options.badge ~= false then step("badge", sys, applyBadge, info, content, options) end
  if options.media ~= false then step("media", sys, applyMedia, info, content, options) end
  -- last, so that a slow receipt server never holds the rest
  step("receipt", sys, applyReceipt, info, content, options)
  return name
end

--- The names `detect` can return, in the order they are tried.
function providers.names()
  local list = {}
  for i, n in ipairs(order) do list[i] = n end
  return list
end

return providers
