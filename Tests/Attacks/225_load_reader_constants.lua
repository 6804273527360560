-- Attack: load with a reader that makes a chunk of 65,537 integer constants, all multiples of
--         2^17 - 1 (the compiler's constant table grows onto one chain: 7.7 s of CPU here).
-- Vector: CPU in the compiler inside a script's load.
-- Expected: fallback, cpu (the growth is refused at once; timeMs 600).
function didReceive(request, content)
  content.title = "attacked"
  local M = (1 << 17) - 1
  local i, n = 0, (1 << 16) + 1
  local f = load(function()
    if i == 0 then i = 1 return "local x = {" end
    if i > n then if i == n + 1 then i = i + 1 return "}" end return nil end
    local piece = {}
    for j = i, math.min(n, i + 199) do piece[#piece + 1] = (j * M) .. "," end
    i = i + 200
    return table.concat(piece)
  end)
  content.body = "survived"
end
