-- Attack: smuggle a second request, another host or a forged length through http.post's headers.
-- Vector: a header value with CR LF and a header of its own after it; a Host header naming a host
--         the host does not allow; Content-Length and Transfer-Encoding given by the script; a
--         header name with a space or a colon; a method other than POST or PUT.
-- Expected: completed, body "blocked": every attempt raises before anything is sent, and no post
--           is recorded (the fixture allows api.example.com and answers it).
function didReceive(request, content)
  local url = "https://api.example.com/receipt"
  local tries = {
    { headers = { ["X-A"] = "1\r\nHost: evil.example.net" } },
    { headers = { ["X-A"] = "1\nX-B: 2" } },
    { headers = { Host = "evil.example.net" } },
    { headers = { ["content-length"] = "0" } },
    { headers = { ["Transfer-Encoding"] = "chunked" } },
    { headers = { ["X A"] = "1" } },
    { headers = { ["X-A:"] = "1" } },
    { headers = { ["X-A"] = "1\0" } },
    { method = "GET" },
    { method = "POST\r\nX: 1" },
    { contentType = "text/plain\r\nHost: evil.example.net" },
  }
  local blocked = 0
  for _, options in ipairs(tries) do
    local ok = pcall(http.post, url, "{}", options)
    if not ok then blocked = blocked + 1 end
  end
  content.body = blocked == #tries and "blocked" or ("sent " .. (#tries - blocked))
end
