-- Served from this folder: `pushscript serve --scripts docs/examples/serve` runs
-- <app>.lua for each request's app, and reloads the file when it changes.
function didReceive(request, content)
  local section = content.userInfo.section
  if type(section) == "string" then content.title = section .. ": " .. content.title end
  content.threadIdentifier = section or ""
end
