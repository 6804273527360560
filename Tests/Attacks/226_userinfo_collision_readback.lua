-- Attack: a userInfo table whose integer keys share one hash chain, built key by key (each
--         insertion walks the chain: hookable instructions), then spends the CPU budget on to
--         about 0.18 s; then didReceive returns. Reading userInfo back walks the table with
--         lua_next, which finds each key again by walking its chain, in the host's own C code:
--         the walk is quadratic, three times over (the compare, the counting pass, the copy).
-- Vector: host CPU after didReceive returned, where the script's budget was not looked at.
-- Expected: fallback, cpu: the read-back is charged as it walks and stops when the
--           request's CPU left (or a quarter of the budget) is spent, and the run ends as the
--           CPU limit with a host warning "userInfo could not be read back"; title "attacked"
--           (timeMs 1000: an unbounded read-back ends as time on a loaded machine).
function didReceive(request, content)
  content.title = "attacked"
  local start = os.clock()
  local t = content.userInfo
  local M = (1 << 13) - 1
  local i = 1
  -- 4,097 keys grow the hash part to 8,192 nodes, where they share one chain; more follow
  while os.clock() - start < 0.14 and i <= 8000 do
    t[i * M] = i
    i = i + 1
  end
  -- a fast machine inserts them all well within the time: the budget is spent on to about
  -- 0.18 s, so that what is left for the read-back (its allowance, a quarter of the budget)
  -- is less than one walk of the chain on any machine
  local x = 0
  while os.clock() - start < 0.18 do x = x + 1 end
  content.body = "built " .. i
end
