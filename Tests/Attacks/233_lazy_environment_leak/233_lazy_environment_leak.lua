-- Attack: reach what every request shares through the lazy environment: take each global by
--         name before anything looks at _G as a whole, assign library names before reading them
--         and take the libraries from require, set a library to nil and assign it again, then
--         poison every table reachable from every global (assignment and rawset), and look for
--         the hidden globals behind require.
-- Vector: cross-request leak through the template the environment gives its globals from.
-- Run 1 poisons; run 2 reads each global by name (the lazy way), then walks _G whole, and
-- finds everything as fresh as a request's environment is.
-- Expected: run 1 completed, body "poisoned"; run 2 completed, body "clean".
local names = {
  "assert", "error", "getmetatable", "ipairs", "load", "next", "pairs", "pcall", "print",
  "rawequal", "rawget", "rawlen", "rawset", "select", "setmetatable", "tonumber", "tostring",
  "type", "xpcall", "_VERSION", "string", "table", "math", "utf8", "coroutine", "os", "json",
  "base64", "hex", "log", "store", "categories", "crypto", "hooks", "http", "keys", "locale",
  "download", "downloadAll", "require",
}
local libraries = {"string", "table", "math", "coroutine", "utf8"}
local hidden = {"__pushscript_library", "__pushscript_module"}

local rawset, rawget, pcall, type, next, pairs, ipairs = rawset, rawget, pcall, type, next, pairs, ipairs
local setmetatable, getmetatable, tostring, load = setmetatable, getmetatable, tostring, load
local concat, sub = table.concat, string.sub

local function poison_table(t, depth, seen)
  if seen[t] or depth > 3 then return end
  seen[t] = true
  local keys = {}
  for k, v in next, t do
    keys[#keys + 1] = k
    if type(v) == "table" then poison_table(v, depth + 1, seen) end
  end
  for _, k in ipairs(keys) do
    pcall(function() t[k] = "poisoned" end)
    pcall(rawset, t, k, "poisoned")
  end
  pcall(function() t.leaked = true end)
  pcall(rawset, t, "leaked_raw", true)
end

local function find_hidden()
  local found = {}
  for _, h in ipairs(hidden) do
    if _ENV[h] ~= nil then found[#found + 1] = h end
    if rawget(_ENV, h) ~= nil then found[#found + 1] = "rawget " .. h end
    local f = load("return " .. h)
    if f and f() ~= nil then found[#found + 1] = "load " .. h end
  end
  for k in pairs(_ENV) do
    if type(k) == "string" and sub(k, 1, 2) == "__" then found[#found + 1] = "pairs " .. k end
  end
  return found
end

local function poison()
  local req = require
  local found = {}
  for _, h in ipairs(hidden) do if _ENV[h] ~= nil then found[#found + 1] = h end end
  -- libraries assigned before they are read, then taken from require
  math = "mine" json = "mine"
  local m = req("math")
  pcall(rawset, m, "floor", "poisoned") m.leaked = true
  -- a library read, set to nil and assigned again, then taken from require
  local s = string
  string = nil string = "mine"
  req("string").upper = function() return "poisoned" end
  s.leaked = true
  math, json, string = nil, nil, nil
  -- every global, by name, before _G is looked at as a whole
  local seen = {}
  for _, name in ipairs(names) do
    local v = _ENV[name]
    if type(v) == "table" then poison_table(v, 1, seen) end
  end
  for _, name in ipairs(libraries) do
    local v = req(name)
    if type(v) == "table" then poison_table(v, 1, seen) end
  end
  -- then _G whole
  for k, v in pairs(_ENV) do
    if type(v) == "table" and v ~= _ENV then poison_table(v, 1, seen) end
  end
  for _, f in ipairs(find_hidden()) do found[#found + 1] = f end
  -- the poison took, in this request
  if s.format ~= "poisoned" or m.floor ~= "poisoned" or req("table").concat ~= "poisoned" then
    found[#found + 1] = "nothing poisoned"
  end
  pcall(setmetatable, _ENV, {__index = function() return "poisoned" end})
  for _, name in ipairs(names) do
    if name ~= "require" then pcall(rawset, _ENV, name, "poisoned") end
  end
  return found
end

local function check_table(t, path, depth, seen, bad)
  if seen[t] or depth > 3 then return end
  seen[t] = true
  if rawget(t, "leaked") ~= nil or rawget(t, "leaked_raw") ~= nil then bad[#bad + 1] = path .. ".leaked" end
  for k, v in next, t do
    if v == "poisoned" then bad[#bad + 1] = path .. "." .. tostring(k) end
    if type(v) == "table" then check_table(v, path .. "." .. tostring(k), depth + 1, seen, bad) end
  end
end

local function check()
  local bad = {}
  for _, h in ipairs(hidden) do if _ENV[h] ~= nil then bad[#bad + 1] = h end end
  -- by name, the lazy way
  local seen = {}
  for _, name in ipairs(names) do
    local v = _ENV[name]
    if v == nil or v == "poisoned" then bad[#bad + 1] = name
    elseif type(v) == "table" then check_table(v, name, 1, seen, bad) end
  end
  for _, name in ipairs(libraries) do
    if require(name) ~= _ENV[name] then bad[#bad + 1] = "require " .. name end
  end
  if ("x"):upper() ~= "X" then bad[#bad + 1] = "string.upper" end
  if math.floor(1.5) ~= 1 then bad[#bad + 1] = "math.floor" end
  if undefined_name ~= nil then bad[#bad + 1] = "undefined_name resolves" end
  -- whole
  if getmetatable(_ENV) ~= nil then bad[#bad + 1] = "_ENV metatable" end
  for _, f in ipairs(find_hidden()) do bad[#bad + 1] = f end
  for k, v in pairs(_ENV) do
    if v == "poisoned" then bad[#bad + 1] = tostring(k) end
    if type(v) == "table" and v ~= _ENV then check_table(v, tostring(k), 1, seen, bad) end
  end
  return bad
end

function didReceive(request, content)
  content.title = "attacked"
  if content.userInfo.step == "check" then
    local bad = check()
    content.body = #bad == 0 and "clean" or ("leaked: " .. concat(bad, ", "))
    return
  end
  local found = poison()
  content.body = #found == 0 and "poisoned" or ("escaped: " .. concat(found, ", "))
end
