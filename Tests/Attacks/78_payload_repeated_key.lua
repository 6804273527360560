-- Attack: a 5,095-byte payload whose key "pad" is repeated five times. Parsed first, the
--         repeated keys are dropped and what is left measures under 4,096 bytes.
-- Vector: the payload size limit measured after parsing instead of on the bytes as sent.
-- Expected: the payload is refused before any script runs: {"error": "payload too large"}.
function didReceive(request, content)
  content.title = "attacked"
  content.body = "survived"
end
