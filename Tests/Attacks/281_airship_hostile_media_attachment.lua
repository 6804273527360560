-- Attack: an Airship media attachment whose keys have every wrong shape: urls entries that are
--         lists, numbers and objects with table values, a crop of huge and negative numbers,
--         content fields that are tables. A reader that indexes them blindly raises inside the
--         library, or attaches or writes what it should not.
-- Vector: pushscript.providers' reading of com.urbanairship.media_attachment.
-- Expected: nothing of the mutation is applied (no attachment, the text as sent), the library
--         logs why and does not fail; completed, body "blocked".
local providers = require "pushscript.providers"
function didReceive(request, content)
  content.title = "attacked"
  local name = providers.apply(request, content)
  local failed = false
  for _, entry in ipairs(content.attachments) do failed = true end
  if name == "airship" and not failed and content.subtitle == "" then content.body = "blocked" else content.body = "escaped" end
end
