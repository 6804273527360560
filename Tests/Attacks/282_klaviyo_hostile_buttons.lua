-- Attack: Klaviyo action_buttons of every wrong shape (ids that are tables, labels that are
--         numbers, urls that are lists, a button that is a string, nested arrays) beside many
--         valid ones with long labels, and a request identifier built to break the category's
--         name. A reader that trusts the shapes raises, registers junk, or names the category
--         from the payload.
-- Vector: pushscript.providers' reading of body.action_buttons and request.identifier.
-- Expected: only the valid buttons are registered, in order, under
--         com.klaviyo.button.<identifier>; nothing fails; completed, body "blocked".
local providers = require "pushscript.providers"
function didReceive(request, content)
  content.title = "attacked"
  providers.apply(request, content)
  local c = categories.get(content.categoryIdentifier)
  if c and content.categoryIdentifier == "com.klaviyo.button." .. request.identifier and #c.actions == 2 then
    content.body = "blocked"
  else
    content.body = "escaped: " .. content.categoryIdentifier
  end
end
