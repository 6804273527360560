-- Attack: a Pushwoosh payload whose pw_badge is "+99999999999999999999999" counts the stored
--         badge past every integer: the store's increment turns the count into a float, the
--         next badge assignment raises, and the stored count is off for every later push.
-- Vector: pushscript.providers' badge rule (NSString integerValue saturates at Int's bound),
--         applied twice in one request so that the second increment would overflow.
-- Expected: both applies count within the largest badge kept (2147483647), an integer; no
--         part fails; completed, body "blocked".
local providers = require "pushscript.providers"
function didReceive(request, content)
  content.title = "attacked"
  providers.apply(request, content)
  providers.apply(request, content)
  local stored = store.get("badge")
  if content.badge == 2147483647 and math.type(stored) == "integer" and stored == 2147483647 then
    content.body = "blocked"
  else
    content.body = "escaped: badge " .. tostring(content.badge) .. ", stored " .. tostring(stored)
  end
end
