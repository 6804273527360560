-- Attack: growths each just under what the CPU left allows: tables of 4,097 multiples of
--         2^13 - 1, which share one chain when the hash part grows to 8,192 nodes (30 ms of
--         re-inserting in one instruction here), made one after another.
-- Vector: CPU inside instructions the growth rule lets through: each is counted at 5 ns a
--         chain step (more than it takes here), so none is let through that could end past
--         the budget.
-- Expected: fallback, cpu, within the budget's margin (the growth the CPU left cannot cover is
--           refused; timeMs 300: a run that went on past the margin would meet the deadline on
--           a loaded machine, and one let through unbounded certainly).
function didReceive(request, content)
  content.title = "attacked"
  local M = (1 << 13) - 1
  while true do
    local t = {}
    for i = 1, (1 << 12) + 1 do t[i * M] = true end
  end
  content.body = "survived"
end
