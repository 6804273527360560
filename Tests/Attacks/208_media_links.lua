-- Attack: attach files of the media directory that are not what they seem: a link to a 12 MB
--         image outside the folder (it passed the 10 MB check, was reported as 8 bytes and
--         delivered as a dangling link), a link inside the folder, a path through a linked
--         folder, a folder, a FIFO (it held a thread forever), a '..' and an absolute path.
-- Vector: the host's files through content:attach{path = ...}. The media directory with these
--         files is made by the Swift suite AttackSettingTests; in the catalogue there is no
--         media directory and every path is refused as naming nothing the script may read.
-- Expected: each refused at once with one line starting "not allowed": completed, body
--           "blocked", no attachment.
function didReceive(request, content)
  content.title = "attacked"
  local escaped = {}
  for _, path in ipairs({ "big-link.jpg", "inner-link.jpg", "away/big.jpg", "folder.jpg", "pipe.jpg", "../big.jpg", "/etc/passwd" }) do
    local a, err = content:attach({ path = path })
    if a or type(err) ~= "string" or not err:find("^not allowed") or err:find("\n") then
      escaped[#escaped + 1] = path .. " -> " .. tostring(a and a.size) .. " " .. tostring(err)
    end
  end
  content.body = #escaped == 0 and "blocked" or ("escaped: " .. table.concat(escaped, "; "))
end
