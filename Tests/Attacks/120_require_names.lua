-- Attack: make require read a file outside the script's folder, a C library, or reach the host
--         function behind require.
-- Vector: sandbox escape through module names ("..", absolute paths, separators, NUL, long
--         names) and the loader's internals.
-- Expected: every such name is refused with a one-line "bad module name", "not found" or (for
--           a library stock Lua has and the sandbox withholds) "not available" error,
--           and nothing of the loader is reachable: completed, body "blocked".
function didReceive(request, content)
  content.title = "attacked"
  local escaped = {}
  local names = {
    "../Attacks/120_require_names", "..", "...", "/etc/passwd", "etc/passwd", "120_modules/loop_a",
    "120_modules..loop_a", ".120_modules.loop_a", "120_modules.loop_a.", "a\0b", "a b", "%00",
    "~root", "C:\\x", "pushscript..providers", "pushscript.", "pushscript.../../etc/passwd",
    string.rep("a", 300), "io", "os", "debug",
  }
  for _, name in ipairs(names) do
    local ok, err = pcall(require, name)
    if ok then
      escaped[#escaped + 1] = "loaded " .. name:sub(1, 40)
    elseif type(err) ~= "string" or not (err:find("bad module name", 1, true) or err:find("not found", 1, true) or err:find("is not available in the sandbox", 1, true)) or err:find("\n", 1, true) then
      escaped[#escaped + 1] = "unclear error for " .. name:sub(1, 40) .. ": " .. tostring(err):sub(1, 80)
    end
  end
  for _, value in ipairs{ 42, true, {}, print } do
    if pcall(require, value) then escaped[#escaped + 1] = "require took a " .. type(value) end
  end
  if rawget(_ENV, "__pushscript_module") ~= nil then escaped[#escaped + 1] = "fetcher in _ENV" end
  local f = load("return __pushscript_module")
  if f and f() ~= nil then escaped[#escaped + 1] = "fetcher through load" end
  for k in pairs(_ENV) do
    if type(k) == "string" and k:find("__pushscript", 1, true) then escaped[#escaped + 1] = "global " .. k end
  end
  content.body = (#escaped == 0) and "blocked" or ("escaped: " .. table.concat(escaped, ", "))
end
