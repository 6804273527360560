-- Build the notification's buttons from the payload: userInfo.buttons is a list of
-- {id=, title=, foreground=}. The category is named after the buttons, registered once,
-- and reused by every later push that carries the same buttons.
function didReceive(request, content)
  local buttons = content.userInfo.buttons
  if type(buttons) ~= "table" or #buttons == 0 then return end
  local actions, ids = {}, {}
  for _, b in ipairs(buttons) do
    if type(b.id) == "string" and type(b.title) == "string" then
      actions[#actions + 1] = {
        identifier = b.id, title = b.title,
        options = b.foreground and { "foreground" } or nil,
      }
      ids[#ids + 1] = b.id
    end
  end
  if #actions == 0 then return end
  local id = "buttons-" .. table.concat(ids, "-")
  if not categories.has(id) then
    categories.register{ identifier = id, actions = actions }
    log.info("registered %s", id)
  end
  content.categoryIdentifier = id
end
