-- Attack: locale.best with 10,000 available and 10,000 preferred tags, none matching: a
--         pairwise comparison costs 10^8 tag comparisons in the host (9.1 s measured).
-- Vector: host work outside the VM, neither charged nor stopped.
-- Expected: the host normalises each tag once and looks them up (linear): completed within
--           the budget, body "survived", subtitle "nil".
function didReceive(request, content)
  content.title = "attacked"
  local available, preferred = {}, {}
  for i = 1, 10000 do
    available[i] = "xa-" .. i
    preferred[i] = "yb_" .. i
  end
  local best = locale.best(available, preferred)
  content.subtitle = tostring(best)
  content.body = "survived"
end
