-- Attack: float keys made to share one chain: Lua 5.4 hashes a float by its mantissa scaled to
--         31 bits plus its exponent, so values (c + k * (2^17 - 1)) * 2^(e - 31), with c chosen
--         per exponent e and the scaled mantissa between 2^30 and 2^31, all land in one chain
--         of a hash part of 2^17 nodes; 65,537 of them grow the part to that size (8.3 s of
--         re-inserting in one instruction here).
-- Vector: CPU inside one instruction, with keys that are not integers.
-- Expected: fallback, cpu at once (float keys are counted by their chains too; timeMs 600).
function didReceive(request, content)
  content.title = "attacked"
  local t = {}
  local M = (1 << 17) - 1
  local count, e = 0, 0
  while count < (1 << 16) + 1 do
    -- values with exponent e: (c + k * M) between 2^30 and 2^31, scaled by 2^(e - 31)
    local c = (5 - e) % M
    local k = ((1 << 30) - c + M - 1) // M
    while c + k * M < (1 << 31) and count < (1 << 16) + 1 do
      t[(c + k * M) * 2.0 ^ (e - 31)] = true
      count = count + 1
      k = k + 1
    end
    e = e + 1
  end
  content.body = "survived"
end
