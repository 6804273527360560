-- Count unread messages on the app icon. APNs's badge is a number to show, not one to add:
-- the store keeps the count across pushes. A push with "badge": 0 (the app was opened)
-- starts the count again.
function didReceive(request, content)
  if content.badge == 0 then
    store.set("unread", 0)
    return
  end
  content.badge = store.increment("unread")
end
