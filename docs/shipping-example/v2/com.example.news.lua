-- Version 2: the headline format lives in a module.
local headline = require "headline"

function didReceive(request, content)
  local section = content.userInfo.section or "news"
  content.threadIdentifier = section
  content.title = headline.format(section, content.title)
end
