-- Attack: math.randomseed in one request decides math.random in the next: the generator's
--         state lives in the shared library function, not in the request's environment.
-- Vector: state kept across requests (SPEC section 1: nothing a script sets is visible in the
--         next request).
-- Run 1 seeds the generator with 42. Run 2 draws a number, then seeds with 42 itself and
-- draws again: the same number means run 1's seed reached it.
-- Expected: run 1 completed; run 2 completed, body "clean".
function didReceive(request, content)
  content.title = "attacked"
  if content.userInfo.step == "seed" then
    math.randomseed(42)
    content.body = "seeded"
    return
  end
  local first = math.random(1, 1000000000)
  math.randomseed(42)
  local seeded = math.random(1, 1000000000)
  local again = math.random(1, 1000000000)
  math.randomseed(42)
  local replay = math.random(1, 1000000000)
  if replay ~= seeded then content.body = "broken: randomseed does not replay" return end
  content.body = first == seeded and "leaked" or "clean"
end
