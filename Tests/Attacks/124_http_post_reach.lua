-- Attack: use http.post to reach what the host did not allow: other hosts (an SSRF to the
--         metadata service or localhost), plain http, file:, credentials in the URL, a redirect
--         to an internal address, a huge body, and posts from bestAttempt.
-- Vector: escape / exfiltration through delivery receipts.
-- Expected: only the allowed host is posted to (its redirect is not followed); everything else
--           is refused with a one-line error, and bestAttempt cannot post: fallback (error),
--           body "blocked", and the result lists only the two posts to the allowed host.
function didReceive(request, content)
  content.title = "attacked"
  local escaped = {}
  local tries = {
    "https://169.254.169.254/latest/meta-data/", "https://127.0.0.1/", "https://localhost/",
    "http://receipts.example.com/r", "file:///etc/passwd", "https://user@receipts.example.com/r",
    "https://receipts.example.com.evil.net/r", "//receipts.example.com/r", "https:receipts.example.com",
    "https://[::1]/", "ftp://receipts.example.com/r",
  }
  for _, url in ipairs(tries) do
    local status, err = http.post(url, "{}")
    if status ~= nil or type(err) ~= "string" or not err:find("^not allowed") or err:find("\n") then
      escaped[#escaped + 1] = url .. " -> " .. tostring(status) .. " " .. tostring(err)
    end
  end
  local s, e = http.post("https://receipts.example.com/redirect", "{}")
  if s ~= nil or not tostring(e):find("redirect", 1, true) then escaped[#escaped + 1] = "redirect followed" end
  s, e = http.post("https://receipts.example.com/r", string.rep("x", 70000))
  if s ~= nil or not tostring(e):find("^too large") then escaped[#escaped + 1] = "huge body sent" end
  s, e = http.post("https://receipts.example.com/r", '{"delivered":true}')
  if s ~= 202 then escaped[#escaped + 1] = "allowed post failed: " .. tostring(e) end
  content.body = (#escaped == 0) and "blocked" or ("escaped: " .. table.concat(escaped, ", "))
  error("into bestAttempt")
end

function bestAttempt(content, reason)
  local s, e = http.post("https://receipts.example.com/r", '{"late":true}')
  content.subtitle = tostring(s) .. " " .. tostring(e)
end
