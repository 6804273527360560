-- Attach every picture the payload names (userInfo.pictures), downloaded in parallel.
function didReceive(request, content)
  local urls = content.userInfo.pictures
  if type(urls) ~= "table" then return end
  local files, errors = downloadAll(urls, { kinds = { "image" } })
  for i = 1, #urls do
    if files[i] then
      local _, err = content:attach(files[i], { identifier = "picture-" .. i })
      if err then log.warn("picture %d not attached: %s", i, err) end
    else
      log.warn("picture %d: %s", i, errors[i])
    end
  end
end
