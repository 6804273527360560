-- Attack: hand library functions a numeric string of megabytes where they take a number.
-- Vector: CPU in C calls the count hook does not see. math.abs, select, table.insert,
--         string.rep and the like convert a string argument to a number, reading all of it
--         (about 12 ms for 7 MB here), before doing anything else; a loop of such calls runs
--         hundreds of them between two runs of the hook.
-- Expected: fallback, cpu (memoryMB 32, timeMs 1000: a host that does not charge the conversion
--           ends as time instead).
function didReceive(request, content)
  content.title = "attacked"
  local s = string.rep("1", 7000000)
  local t = {}
  for i = 1, 1e6 do
    pcall(math.abs, s)
    pcall(select, s)
    pcall(table.insert, t, s, 1)
    pcall(string.rep, "", s)
  end
  content.body = "survived"
end
