-- OneSignal's notification service extension, as a script: the picture from `att.id`, the
-- buttons from `buttons` (with their SF Symbol icons), and `custom.badge_inc` applied to the
-- badge, which never goes below 0.

local function buttonCategory(notificationId, buttons)
  local actions = {}
  for _, b in ipairs(buttons) do
    if type(b) == "table" and type(b.i) == "string" and type(b.n) == "string" then
      local action = {identifier = b.i, title = b.n, options = {"foreground"}}
      if b.icon_type == "system" and type(b.path) == "string" then
        action.icon = {system = b.path}
      elseif b.icon_type == "custom" and type(b.path) == "string" then
        action.icon = {template = b.path}
      end
      actions[#actions + 1] = action
    end
  end
  if #actions == 0 then return nil end
  -- One category per notification, as OneSignal's SDK does; the host keeps the newest 128.
  return {identifier = "__onesignal__dynamic__" .. notificationId, actions = actions}
end

function didReceive(request, content)
  local info = content.userInfo
  local custom = info.custom or {}

  if type(info.buttons) == "table" and type(custom.i) == "string" then
    local category = buttonCategory(custom.i, info.buttons)
    if category then
      categories.register(category)
      content.categoryIdentifier = category.identifier
      log.info("buttons: %d", #category.actions)
    end
  end

  local inc = math.tointeger(custom.badge_inc)
  if inc then
    content.badge = store.increment("badge", inc, {min = 0})
  end

  local url = type(info.att) == "table" and info.att.id
  if type(url) == "string" then
    local file, err = download(url, {kinds = {"image", "video", "audio"}})
    if file then content:attach(file) else log.warn("no picture: %s", err) end
  end
end
