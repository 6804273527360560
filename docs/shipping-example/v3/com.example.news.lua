-- Version 3: a mistake (userInfo.tags is not always there).
function didReceive(request, content)
  content.title = content.userInfo.tags[1] .. ": " .. content.title
end
