-- Shared by the app's scripts: "Sport · Lions win".
local M = {}

function M.format(section, title)
  return section:sub(1, 1):upper() .. section:sub(2) .. " · " .. title
end

return M
