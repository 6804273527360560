-- The baseline: the script the app ships in its extension.
function didReceive(request, content)
  content.threadIdentifier = content.userInfo.section or "news"
end
