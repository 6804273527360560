-- Version 1: the section before the title.
function didReceive(request, content)
  local section = content.userInfo.section or "news"
  content.threadIdentifier = section
  content.title = section .. ": " .. content.title
end
