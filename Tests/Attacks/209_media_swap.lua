-- Attack: have another process swap a file of the media directory for a link to a file outside
--         the folder and back, while the script attaches it: with a check that resolved links
--         and a copy that followed them, the outside file was attached in 9–30 of 300 tries.
-- Vector: the host's files through a race between check and use. The swapping thread and the
--         300 tries are made by the Swift suite AttackSettingTests; in the catalogue there is
--         no media directory and the path is refused.
-- Expected: every try either attaches the file from inside the folder (opened once, without
--           following links, and copied from that descriptor) or is refused with one line:
--           body "attached" or "blocked", never bytes from outside.
function didReceive(request, content)
  content.title = "attacked"
  local a, err = content:attach({ path = "pic.jpg" })
  if a then
    content.body = "attached"
  elseif type(err) == "string" and (err:find("^not allowed") or err:find("^cannot read")) and not err:find("\n") then
    content.body = "blocked"
  else
    content.body = "escaped: " .. tostring(err)
  end
end
