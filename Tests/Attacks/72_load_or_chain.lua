-- Attack: load() of `return 1 or 1 or ...` with 70,000 terms, made at run time.
-- Vector: the parser's quadratic jump-list concatenation, inside one call to load.
-- Expected: load charges each piece it hands the parser and checks the CPU budget:
--           fallback, reason cpu (the kill is final: pcall cannot catch it).
function didReceive(request, content)
  content.title = "attacked"
  local src = "return " .. ("1 or "):rep(70000) .. "1"
  pcall(load, src)
  content.body = "survived"
end
