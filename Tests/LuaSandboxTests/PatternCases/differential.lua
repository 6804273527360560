-- Differential cases for the project's pattern matcher.
--
-- Runs in a plain Lua 5.4 state where `string` is the stock library and `own` holds the
-- project's find, match, gmatch and gsub (pss_testing_pattern_compare). Every case runs
-- through both; all return values (with their Lua types and number subtypes), the calls a
-- replacement function received, and error messages must be equal.
--
-- Returns: the number of cases compared, and a report of the mismatches ("" when none).

local cases = {}

-- A case: the function's name and its arguments. A replacement function is written as
-- F(body): each run gets a fresh function that records its arguments, then returns body(...).
local function case(name, ...)
  cases[#cases + 1] = {name = name, args = table.pack(...)}
end
local function F(body) return {make_function = body} end

-- An iteration through gmatch: the iterator's results, each call, until the first nil.
local function G(...) case("gmatch", ...) end

---------------------------------------------------------------------------------------------
-- find: positions, init, plain
case("find", "hello world", "o")
case("find", "hello world", "o", 6)
case("find", "hello world", "o", -3)
case("find", "hello world", "o", -100)
case("find", "hello world", "o", 0)
case("find", "hello world", "l+")
case("find", "hello world", "xyz")
case("find", "hello", "", 1)
case("find", "hello", "", 6)
case("find", "hello", "", 7)
case("find", "hello", "", 100)
case("find", "hello", "", -1)
case("find", "", "")
case("find", "", "a")
case("find", "", ".*")
case("find", "a.b", ".", 1, true)
case("find", "a.b", "%.", 1)
case("find", "a+b", "+", 1, true)
case("find", "a+b", "a+", 1, true)
case("find", "a+b", "a+")
case("find", "x(y)z", "(y)", 1, true)
case("find", "x(y)z", "(y)")
case("find", "a)b", "a)")
case("find", "aaab", "aab", 1, true)
case("find", "abcabc", "bc", 3, true)
case("find", "abcabc", "bc", -2, true)
case("find", "abc", "c", 4, true)
case("find", "abc", "", 4, true)
case("find", "a\0b\0c", "\0c")
case("find", "a\0b\0c", "%z")
case("find", "a\0b\0c", "[\0]", 3)
case("find", "a\0b\0c", "b\0", 1, true)
case("find", 12345, 34)
case("find", 1.5, "%.")
case("find", "abc", "b", 1, "yes")
case("find", "abc", "b", 1, false)
case("find", "abc", "b", "2")
case("find", ("ab"):rep(1000) .. "c", "abc")
case("find", ("ab"):rep(1000) .. "c", "abc", 1, true)
case("find", ("a"):rep(100000) .. "b", ("a"):rep(300) .. "b", 1, true)
case("find", ("a"):rep(70000) .. "b", ("a"):rep(5000) .. "b", 1, true)
case("find", ("a"):rep(66000) .. "b" .. ("a"):rep(10), ("a"):rep(2000) .. "b", 1000, true)
case("find", ("a"):rep(65530) .. "bab" .. ("a"):rep(70000), ("a"):rep(400) .. "b", 3, true)
case("find", ("a"):rep(140000), ("a"):rep(400) .. "b", 1, true)
case("find", ("a"):rep(140000) .. "b", ("a"):rep(30000) .. "b", -100000, true)

-- match: captures and whole matches
case("match", "hello world", "(h)(e)(l)(l)(o)")
case("match", "hello world", "%w+")
case("match", "hello world", "(%w+) (%w+)")
case("match", "key = value", "(%w+)%s*=%s*(%w+)")
case("match", "  trim me  ", "^%s*(.-)%s*$")
case("match", "2024-01-15", "(%d+)-(%d+)-(%d+)")
case("match", "2024-01-15", "^(%d%d%d%d)-(%d%d)-(%d%d)$")
case("match", "2024-01-15x", "^(%d%d%d%d)-(%d%d)-(%d%d)$")
case("match", "hello", "()ll()")
case("match", "hello", "()")
case("match", "hello", "()", 6)
case("match", "hello", "()", 7)
case("match", "hello", "(()l)")
case("match", "hello", "((l)(l))")
case("match", "hello", "h(.-)o")
case("match", "hello", "h(.*)l")
case("match", "hello", "h(.-)l")
case("match", "hello", "l", -2)
case("match", "hello", "^l", 3)
case("match", "hello", "^h", 2)
case("match", "hello", "o$")
case("match", "hello", "l$")
case("match", "hello$", "o$$")
case("match", "a$b", "$b")
case("match", "a^b", "a^b")
case("match", "^ab", "^^a")
case("match", "hello", "^")
case("match", "hello", "$")
case("match", "hello", "^$")
case("match", "", "^$")
case("match", "x", "x*$")
case("match", "abc", "[a-c]+")
case("match", "abc-", "[a-]+")
case("match", "-a-", "[-a]+")
case("match", "]]a", "[]]+")
case("match", "a]]", "[^]]+")
case("match", "^^a", "[%^]+")
case("match", "a^b", "[b^]+")
case("match", "%%a", "[%%]+")
case("match", "a.b", "[.]")
case("match", "ab12_x", "[%w_]+")
case("match", "ab12_x", "[^%d]+")
case("match", "AbC", "[%u]+")
case("match", "AbC", "[%U]+")
case("match", "0x1F!", "0x(%x+)")
case("match", "tab\there", "%s(%a+)")
case("match", "a,b;c", "%p")
case("match", "\1\2abc", "%c+")
case("match", "Hello World", "%u%l+")
case("match", "Hello World", "%L+")
case("match", " \t\n x", "%S")
case("match", "abc", "%g+")
case("match", "abc", ".-b")
case("match", "abc", "a.?c")
case("match", "ac", "ab?c")
case("match", "abbbc", "ab-c")
case("match", "abbbc", "ab-bc")
case("match", "abbbc", "ab*")
case("match", "abbbc", "ab+")
case("match", "ac", "ab+c")
case("match", "aaa", "a-")
case("match", "aaa", "a-$")
case("match", "aaa", "^a?a?a?a?$")
case("match", "aaaa", "(a+)(a+)")
case("match", "aaaa", "(a-)(a+)")
case("match", "aaaa", "(a*)(a-)$")
case("match", "xyz", "%a?%a?%a?%a?")
case("match", "*+-?", "%*%+%-%?")
case("match", "**", "**")
case("match", "a**", "a%**")
case("match", "--", "--")
case("match", "a-b", "a-b")
case("match", "+a", "+a")
case("match", "?a", "?a")
case("match", "%d", "%%d")
case("match", "abc", "%q?%a")
case("match", "Q", "%Q")
case("match", "a.b.c", "(.-)%.")
case("match", "a.b.c", "(.*)%.")
case("match", "abab", "(ab)%1")
case("match", "abac", "(ab)%1")
case("match", "xaax", "(a)%1")
case("match", "abcabc", "(a(b)c)%1%2?")
case("match", "aa", "()a%1")
case("match", "one two three", "(%a+) (%a+) (%a+)")
case("match", "name: Bob", "name:%s*(%S+)")
case("match", "[tag]", "%[(.-)%]")
case("match", "f(a(b)c)d", "%b()")
case("match", "f(a(b)c", "%b()")
case("match", "((x)", "%b()")
case("match", "{a}{b}", "%b{}%b{}")
case("match", "x'abc'y'z", "%b''")
case("match", "[[a]]", "%[(%b[])%]")
case("match", "THE (quick) fox", "%f[%a]%a+")
case("match", "THE (quick) fox", "%f[%l]%a+")
case("match", "hello world", "%f[%w]%w+$")
case("match", "hello", "%f[%z]")
case("match", "hello", "o%f[%z]")
case("match", "hello", "()%f[^%z]")
case("match", "aXb", "%f[%u]().")
case("match", "hello", "%f[^h]")
case("match", "hello", "(h)(e)(l)(l)(o)()()()()()()()()()()()()()()()()()()()()()()()()()()()")
case("match", "café", "caf.")
case("match", "\200\201\255", "[\200-\255]+")
case("match", "\200\201\255", "[^\0-\127]+")
case("match", "a\0b", "%Z+")
case("match", "ab", "[a-a]b")
case("match", "b", "[z-a]")
case("match", "-", "[%a-z]")
case("match", "z", "[%a-z]")
case("match", "]", "[a-%%]")
case("match", "%", "[a-%%]")
case("match", "d", "[a-%d]")
case("match", "]", "[a-%]]")
case("match", "a-]", "[%]-a]+")
case("match", "^", "[]-a]")
case("match", "abc", "[!--]")
case("match", "x", "[^]")
case("match", ("a"):rep(300), ("a?"):rep(199))
case("match", ("a"):rep(300), ("a?"):rep(200))
case("match", ("a"):rep(300), ("a*"):rep(250))
case("match", ("a"):rep(300), ("a-"):rep(199) .. "$")
case("match", ("a"):rep(300), ("()"):rep(32) .. ("a?"):rep(167))
case("match", ("a"):rep(300), ("()"):rep(32) .. ("a?"):rep(168))
case("match", ("a"):rep(300), ("(a)"):rep(32))
case("match", ("a"):rep(300), ("(a)"):rep(33))
case("match", ("a"):rep(300), ("(a)"):rep(99) .. "b")

-- malformed patterns, bad arguments, and where stock notices them
case("find", "abc", "%")
case("find", "abc", "a%")
case("find", "xyz", "a%")
case("find", "abc", "[a")
case("find", "abc", "[")
case("find", "abc", "[]")
case("find", "abc", "[^]")
case("find", "abc", "[a%]")
case("find", "xyz", "a[")
case("find", "abc", "%f")
case("find", "abc", "%fa")
case("find", "abc", "%f[a")
case("find", "abc", "%b")
case("find", "abc", "%ba")
case("find", "xyz", "a%b")
case("find", "abc", "%1")
case("find", "abc", "%0")
case("find", "abc", "(a%1)")
case("find", "abc", "(a)%2")
case("find", "abc", "()%1")
case("find", "abc", "a)")
case("find", "abc", "a).")
case("find", "abc", ")")
case("find", "xyz", "a)")
case("match", "abc", "(a")
case("match", "abc", "(")
case("match", "abc", "(()")
case("find", "abc", "(a")
case("find", "abc", "x(")
case("match", "abc", ("()"):rep(33))
case("find", nil, "a")
case("find", "a", nil)
case("find", "a", "a", "x")
case("find", "a", "a", 1.5)
case("find", {}, "a")
case("match", "a")
case("match", "a", "a", {})
case("gsub", "abc", "b")
case("gsub", "abc", "b", nil)
case("gsub", "abc", "b", true)
case("gsub", "abc", "b", "x", "y")
case("gsub", "abc", "b", "x", 1.5)
case("gsub", "abc", "b", nil, "y")
case("gsub", "abc", "[", "x")
case("gsub", "abc", "x%", "y")
case("gsub", "abc", "%", "y")
G("abc", "[")
G("abc", "%f")
G(nil, "a")
G("abc", "a", "x")

-- gmatch: iteration, captures, anchors (a literal '^' in 5.4), init, empty matches
G("hello world from lua", "%a+")
G("key=val, k2=v2", "(%w+)=(%w+)")
G("abc", "")
G("abc", "()")
G("abc", ".")
G("abc", "%w*")
G("abc", "a*")
G("a,b,,c", "([^,]*)")
G("a,b,,c,", "([^,]*),?")
G("^a^a", "^a")
G("aaa", "^a")
G("hello", "l*")
G("one two", "%a+", 2)
G("one two", "%a+", -3)
G("one two", "%a+", 100)
G("abc", "", 4)
G("abc", "", 5)
G("abc", "", -1)
G("abc", "()", 0)
G("THE (quick) fox", "%f[%a]%a+")
G("[a][bb][]", "%[(.-)%]")
G("(a)(b(c))", "%b()")
G("x = 1, y = 22", "(%a)%s*=%s*(%d+)")
G("aXbXc", "[^X]+")
G("a\0b\0c", "[^%z]+")
G("abab", "(a)(b)()")

-- gsub: string replacements
case("gsub", "hello world", "o", "0")
case("gsub", "hello world", "o", "0", 1)
case("gsub", "hello world", "o", "0", 0)
case("gsub", "hello world", "o", "0", -1)
case("gsub", "hello world", "o", "0", 100)
case("gsub", "hello world", "o", "0", 2.0)
case("gsub", "hello world", "o", "0", "1")
case("gsub", "hello world", "(o)", "[%1]")
case("gsub", "hello world", "o", "[%0]")
case("gsub", "hello world", "o", "%%")
case("gsub", "hello world", "o", "%1")
case("gsub", "hello world", "o", "%2")
case("gsub", "hello world", "(o)", "%2")
case("gsub", "hello world", "o", "%")
case("gsub", "hello world", "o", "%x")
case("gsub", "hello world", "o", "a%")
case("gsub", "hello world", "()o", "%1")
case("gsub", "hello world", "(l)(l)", "%2%1")
case("gsub", "hello world", "(l)(l)", "%0%0")
case("gsub", "hello world", "%w+", "<%0>")
case("gsub", "hello world", "(%w+)", "%1 %1")
case("gsub", "hello world", "(%w+) (%w+)", "%2 %1")
case("gsub", "hello world", "", "-")
case("gsub", "abc", "%w*", "-")
case("gsub", "abc", "%w-", "-")
case("gsub", "abc", "b*", "-")
case("gsub", "hello world", "o*", "X")
case("gsub", "", "", "x")
case("gsub", "", "x*", "y")
case("gsub", "abc", "^", ">")
case("gsub", "abc", "$", "<")
case("gsub", "abc", "^a", "A")
case("gsub", "abc", "^b", "B")
case("gsub", "aaa", "^a", "b")
case("gsub", "aaa", "^a*", "b")
case("gsub", "abc", "^", ">", 0)
case("gsub", "  trim  ", "^%s+", "")
case("gsub", "  trim  ", "%s+$", "")
case("gsub", "a b  c", "%s+", " ")
case("gsub", "hello", ".", "%0%0")
case("gsub", "hello", "", "")
case("gsub", "abc", "b", 5)
case("gsub", "abc", "b", 2.5)
case("gsub", "abc", "b", "")
case("gsub", "a.b.c", "%.", "%%")
case("gsub", "a\0b", "%z", "0")
case("gsub", "x\0y", "\0", "NUL")
case("gsub", "abc", "(", "x")
case("gsub", "abc", "(b", "%1")
case("gsub", "f(a(b)c)", "%b()", "[]")
case("gsub", "THE (quick) fox", "%f[%a]", "|")
case("gsub", "THE (quick) fox", "%f[%A]", "|")
case("gsub", "one two three", "(%w+)", "<%1>", 2)
case("gsub", 123456, 4, 9)
case("gsub", ("abc"):rep(500), "b", "XY")
case("gsub", ("abc"):rep(500), "(a)(b)(c)", "%3%2%1")

-- gsub: table replacements
case("gsub", "$name is $age", "%$(%w+)", {name = "Bob", age = 42})
case("gsub", "$name is $age", "%$(%w+)", {name = "Bob"})
case("gsub", "$name is $age", "%$(%w+)", {name = false, age = 1.5})
case("gsub", "$name is $age", "%$(%w+)", {name = {}})
case("gsub", "$name is $age", "%$(%w+)", {name = true})
case("gsub", "abc", "%w", {a = 1, b = 2, c = 3})
case("gsub", "abc", "%w", {})
case("gsub", "abc", "()%w", {[1] = "one", [3] = "three"})
case("gsub", "abc", "(%w)(%w)", {a = "A"})
case("gsub", "abc", "", {[""] = "-"})
case("gsub", "abc", "(", {})

-- gsub: function replacements
case("gsub", "hello world", "%w+", F(function(w) return w:upper() end))
case("gsub", "hello world", "(%w+)", F(function(w) return nil end))
case("gsub", "hello world", "(%w+)", F(function(w) return false end))
case("gsub", "hello world", "(%w+)", F(function(w) return #w end))
case("gsub", "hello world", "(%w+)", F(function(w) return 0.5 end))
case("gsub", "hello world", "(%w+)", F(function(w) return {} end))
case("gsub", "hello world", "(%w+)", F(function(w) return w, "ignored" end))
case("gsub", "hello world", "(%w)(%w*)", F(function(a, b) return b .. a end))
case("gsub", "hello world", "()(%w+)()", F(function(i, w, j) return i .. w .. j end))
case("gsub", "hello world", "%w+", F(function(w) return w end), 1)
case("gsub", "abc", "", F(function(e) return "[" .. e .. "]" end))
case("gsub", "abc", "%w*", F(function(e) return "<" .. e .. ">" end))
case("gsub", "a=1, b=2", "(%w+)=(%w+)", F(function(k, v) return v .. "=" .. k end))
case("gsub", "abc", "(", F(function(x) return "x" end))
case("gsub", "abc", "b", F(function(x) error("boom") end))

-- every class and its complement, over all 256 bytes
local all = {}
for c = 0, 255 do all[#all + 1] = string.char(c) end
all = table.concat(all)
for cls in ("acdglpsuwx"):gmatch(".") do
  case("gsub", all, "%" .. cls, "")
  case("gsub", all, "%" .. cls:upper(), "")
  case("gsub", all, "[%" .. cls .. "]+", ".")
  case("gsub", all, "[^%" .. cls .. "_]+", ".")
end
case("gsub", all, "[%a%d]", "")
case("gsub", all, "[%A%D]", "")
case("gsub", all, "[a-fA-F0-9]", "")
case("gsub", all, "[^a-z]", "")
case("gsub", all, "[\1-\31\127-\255]", "")
case("gsub", all, ".", "%0")
case("gsub", all, "%f[%w]", "|")
case("gsub", all, "%f[%W]", "|")

---------------------------------------------------------------------------------------------
-- Random patterns over random subjects, from a fixed seed: short enough that stock Lua's
-- backtracking stays cheap, varied enough to meet the corners (errors included).
local pieces = {
  "a", "b", ".", "%a", "%d", "%s", "%W", "[ab]", "[^a]", "[a-c]", "[%d_]", "%%", "%.", "x",
  "*", "+", "-", "?", "(", ")", "()", "%1", "%2", "%b()", "%bab", "%f[%w]", "%f[^a]", "^",
  "$", "[", "]", "%",
}
local letters = {"a", "b", "c", "1", "2", " ", "(", ")", "_", "x", "."}
math.randomseed(20240601)
local RANDOM = 3000
for _ = 1, RANDOM do
  local p = {}
  for _ = 1, math.random(1, 7) do p[#p + 1] = pieces[math.random(#pieces)] end
  local s = {}
  for _ = 1, math.random(0, 12) do s[#s + 1] = letters[math.random(#letters)] end
  local pattern, subject = table.concat(p), table.concat(s)
  local kind = math.random(4)
  if kind == 1 then case("find", subject, pattern, math.random(-3, 4))
  elseif kind == 2 then case("match", subject, pattern)
  elseif kind == 3 then G(subject, pattern)
  else case("gsub", subject, pattern, "<%0>") end
end

---------------------------------------------------------------------------------------------
-- The comparison.

local function serialize(v, seen)
  local t = type(v)
  if t == "string" then return string.format("%q", v)
  elseif t == "number" then return math.type(v) .. ":" .. string.format("%.17g", v)
  elseif t == "table" then
    seen = seen or {}
    if seen[v] then return "<cycle>" end
    seen[v] = true
    local parts = {}
    for i = 1, (v.n or #v) do parts[#parts + 1] = serialize(v[i], seen) end
    return "{" .. table.concat(parts, ", ") .. "}"
  else return tostring(v) end
end

-- Runs one case through library `lib`: returns a description of everything observed.
-- The call goes through a local named `f`, so a "bad argument" message names 'f' for both.
local function run(lib, c)
  local log = {}
  local args = table.pack(table.unpack(c.args, 1, c.args.n))
  for i = 1, args.n do
    local a = args[i]
    if type(a) == "table" and a.make_function then
      local body = a.make_function
      args[i] = function(...)
        log[#log + 1] = table.pack(...)
        return body(...)
      end
    end
  end
  local f = lib[c.name]
  local function call()
    if c.name == "gmatch" then
      local it = f(table.unpack(args, 1, args.n))
      local rounds = {}
      for _ = 1, 1000 do
        local r = table.pack(it())
        rounds[#rounds + 1] = r
        if r[1] == nil then break end
      end
      return rounds
    end
    local r = table.pack(f(table.unpack(args, 1, args.n)))
    return r
  end
  local ok, result = pcall(call)
  return serialize({n = 3, ok, result, log})
end

local own_lib = {find = own.find, match = own.match, gmatch = own.gmatch, gsub = own.gsub}
local report = {}
for i, c in ipairs(cases) do
  local expected = run(string, c)
  local actual = run(own_lib, c)
  if expected ~= actual then
    report[#report + 1] = string.format("case %d: %s%s\n  stock: %s\n  own:   %s", i, c.name,
      serialize(c.args):sub(1, 200), expected:sub(1, 400), actual:sub(1, 400))
  end
end
return #cases, table.concat(report, "\n")
