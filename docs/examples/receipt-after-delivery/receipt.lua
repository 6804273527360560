-- The banner goes out as soon as didReceive returns. The delivery receipt is sent after
-- that, from afterDelivery, so a slow receipt host never holds the notification back.
function didReceive(request, content)
  content.title = "Order " .. content.userInfo.order .. " shipped"
end

-- content is read-only here: what was delivered. http.post, store and log work.
function afterDelivery(request, content)
  local status, err = http.post("https://receipts.example.com/v1/received",
    json.encode({ id = request.identifier, order = content.userInfo.order }))
  if not status then log.warn("receipt not sent: %s", err) end
end
