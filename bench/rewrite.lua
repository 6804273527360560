-- The benchmark's script: reads userInfo, rewrites the title, body and thread.
function didReceive(request, content)
  local info = content.userInfo
  if info.headline then content.title = info.headline end
  content.body = content.body .. " [" .. (info.section or "general") .. "]"
  content.threadIdentifier = info.section or ""
end
