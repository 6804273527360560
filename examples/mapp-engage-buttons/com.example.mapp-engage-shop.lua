-- com.example.mapp-engage-shop: Mapp Engage rich push with buttons in the reader's language.
--
-- A Mapp Engage rich push can carry its own buttons (`buttons`: one entry per button, with a
-- foreground action `fgAction` that opens the app or a background action `bgAction`). iOS
-- shows buttons only through a registered notification category, so the extension turns the
-- payload's buttons into one: it picks the device's language among the labels the message
-- brings, registers a category with those labels, and points the notification at it. A push
-- without buttons uses the app's predefined button sets with Mapp's `<category>_<lc>` rule.
-- The media in `ios_apx_media` is attached as in every Mapp rich push.

-- The languages every button has a label for.
local function commonLanguages(buttons)
  local count, languages = {}, {}
  for _, button in ipairs(buttons) do
    for language in pairs(button.title) do
      count[language] = (count[language] or 0) + 1
      if count[language] == #buttons then
        languages[#languages + 1] = language
      end
    end
  end
  table.sort(languages)                       -- pairs() has no order; make the choice stable
  return languages
end

local function contains(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

-- A label when the button has none in the chosen language nor in English.
local function firstLabel(titles)
  local languages = {}
  for language in pairs(titles) do languages[#languages + 1] = language end
  table.sort(languages)
  return titles[languages[1]]
end

-- Whether `titles` is a non-empty table of language = label strings.
local function hasLabels(titles)
  if type(titles) ~= "table" or next(titles) == nil then return false end
  for language, label in pairs(titles) do
    if type(language) ~= "string" or type(label) ~= "string" or label == "" then return false end
  end
  return true
end

-- The buttons of the payload, as a list of {id=, title={lang=label}, fgAction=, bgAction=}.
-- Mapp sends them as a list; a JSON string (as the Android payload carries them) works too.
local function readButtons(value)
  if type(value) == "string" then
    local decoded, err = json.decode(value)
    if decoded == nil then
      log.warn("buttons are not valid JSON (%s): no buttons", err)
      return nil
    end
    value = decoded
  end
  if type(value) ~= "table" then
    return nil
  end
  local buttons = {}
  for i, button in ipairs(value) do
    if type(button) == "table" and hasLabels(button.title) then
      buttons[#buttons + 1] = button
    else
      log.warn("button %d has no labels: left out", i)
    end
  end
  return #buttons > 0 and buttons or nil
end

-- Registers (once) the category for these buttons in `language` and returns its identifier.
local function buttonCategory(base, messageId, buttons, language)
  -- One category per message and language: a later campaign that uses the same base category
  -- with other buttons never relabels a notification still in Notification Center.
  local id = messageId and ("%s_%s_%s"):format(base, messageId, language) or ("%s_%s"):format(base, language)
  if categories.has(id) then
    log.debug("category %s already registered", id)
    return id
  end
  local actions, labels = {}, {}
  for i, button in ipairs(buttons) do
    local label = button.title[language] or button.title.en or firstLabel(button.title)
    local options = {}
    if button.fgAction ~= nil then options[#options + 1] = "foreground" end
    if button.destructive == true then options[#options + 1] = "destructive" end
    actions[i] = { identifier = tostring(button.id or ("button_" .. i)), title = label, options = options }
    labels[i] = label
  end
  categories.register { identifier = id, actions = actions }
  log.debug("category %s: %s", id, table.concat(labels, " | "))
  return id
end

local function attachMedia(content)
  local url = content.userInfo.ios_apx_media
  if type(url) ~= "string" or url == "" then return end
  local file, err = download(url)
  if not file then
    log.warn("ios_apx_media not downloaded: %s", err)
    return
  end
  local attachment, attachErr = content:attach(file, { identifier = "ios_apx_media" })
  if not attachment then log.warn("ios_apx_media not attached: %s", attachErr) end
end

function didReceive(request, content)
  local info = content.userInfo
  local base = content.categoryIdentifier ~= "" and content.categoryIdentifier or "apx_custom_push"
  local lc = type(info.aps.lc) == "string" and info.aps.lc or nil
  local buttons = readButtons(info.buttons)

  if buttons then
    local languages = commonLanguages(buttons)
    -- The device's languages first (request.locales, most preferred first), then the
    -- message's own language, then English, then whatever the message has.
    local language = locale.best(languages)
      or (lc and locale.best(languages, { lc }))
      or (contains(languages, "en") and "en")
      or languages[1]
      or "en"
    local messageId = (type(info.p) == "string" or math.type(info.p) == "integer") and info.p or nil
    content.categoryIdentifier = buttonCategory(base, messageId, buttons, language)
  elseif lc and content.categoryIdentifier ~= "" then
    content.categoryIdentifier = categories.localized(content.categoryIdentifier, lc)
  end

  attachMedia(content)    -- last: the buttons are set even if the deadline cuts this off
end
