-- The compute-only benchmark: the handler does arithmetic and string work in a loop and sets
-- the body once, so its time is the Lua interpreter's, not the host's. bench/compare runs it
-- under `pushscript run` and under stock lua5.4 (which calls didReceive itself).
function didReceive(request, content)
  local sum, text = 0, ""
  for i = 1, 6000000 do
    sum = (sum * 31 + i) % 2147483647
    if i % 1000000 == 0 then text = text .. string.format("%x", sum % 65536) end
  end
  content.body = text
end
