import Testing
@testable import LuaSandbox

/// The safe environment of SPEC section 1 and the guarded library functions in it: what a
/// script finds, and that the guarded versions behave as the stock ones do.
@Suite struct EnvironmentTests {
    @Test func theEnvironmentIsSPECsListExactly() throws {
        let sandbox = try LuaSandbox()
        var names: [String: [String]] = [:]
        sandbox.register("report") { call in
            guard case .table(let t) = call[0] else { return .error("not a table") }
            for pair in t.pairs {
                guard let key = pair.key.stringValue, case .table(let list) = pair.value else { continue }
                names[key] = list.elements.compactMap(\.stringValue).sorted()
            }
            return .none
        }
        let status = runScript("""
            local out = {}
            for _, lib in ipairs({'_G', 'string', 'table', 'math', 'utf8', 'coroutine', 'os'}) do
              local list = {}
              for k in pairs(lib == '_G' and _G or _G[lib]) do list[#list + 1] = k end
              out[lib] = list
            end
            report(out)
            """, in: sandbox)
        #expect(status == .completed)
        #expect(names["_G"] == [
            "_G", "_VERSION", "assert", "coroutine", "error", "getmetatable", "ipairs", "load", "math",
            "next", "os", "pairs", "pcall", "rawequal", "rawget", "rawlen", "rawset", "report", "select",
            "setmetatable", "string", "table", "tonumber", "tostring", "type", "utf8", "xpcall",
        ])
        #expect(names["string"] == [
            "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match", "pack", "packsize",
            "rep", "reverse", "sub", "unpack", "upper",
        ])
        #expect(names["table"] == ["concat", "insert", "move", "pack", "remove", "sort", "unpack"])
        #expect(names["coroutine"] == ["create", "isyieldable", "resume", "running", "status", "wrap", "yield"])
        #expect(names["os"] == ["clock", "date", "difftime", "time"])
        #expect(names["utf8"] == ["char", "charpattern", "codepoint", "codes", "len", "offset"])
        // the whole math library (Debian's build adds the 5.2 compatibility functions)
        let manual: Set = [
            "abs", "acos", "asin", "atan", "ceil", "cos", "deg", "exp", "floor", "fmod", "huge", "log",
            "max", "maxinteger", "min", "mininteger", "modf", "pi", "rad", "random", "randomseed", "sin",
            "sqrt", "tan", "tointeger", "type", "ult",
        ]
        #expect(manual.isSubset(of: names["math"] ?? []))
    }

    @Test func weakKeysAreRefusedWeakValuesAreNot() throws {
        // A weak-keyed table is an ephemeron table, marked in one collection step in time
        // quadratic in a chain of its keys, where no hook runs.
        let r = try Recorder()
        let (status, values) = r.run("""
            result(pcall(setmetatable, {}, {__mode = 'k'}))
            result(select(2, pcall(setmetatable, {}, {__mode = 'k'})))
            result(pcall(setmetatable, {}, {__mode = 'kv'}))
            result(true)
            local t = setmetatable({}, {__mode = 'v'}) t[1] = {} result(getmetatable(t).__mode)
            result(type(setmetatable({}, {__mode = 5})))
            """)
        #expect(status == .completed)
        #expect(values.count == 6)
        #expect(values[0] == .boolean(false))
        #expect(values[1].stringValue?.contains("setmetatable: weak keys (__mode 'k') are not allowed in the sandbox") == true)
        #expect(values[2] == .boolean(false))
        #expect(values[4] == .text("v"))
        #expect(values[5] == .text("table"))
    }

    @Test func metatablesLoadAndTheStringMetatable() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(pcall(setmetatable, {}, {__gc = false}))
            result(pcall(setmetatable, {}, {__gc = function() end}))
            result(type(getmetatable(''))) result(pcall(setmetatable, '', {}))
            result(select(2, load('\\27Lua', 'b')))
            result(select(2, load('return 1', 'c', 'b')))
            x = 'script global'
            result(load('return x')()) result(load('return x', 'c', 't', {x = 'given'})())
            result(load(function() return nil end) ~= nil)
            local parts, i = {'return ', string.rep(' ', 10000), '1 +', ' 41', ''}, 0
            result(load(function() i = i + 1 return parts[i] end)())
            result(load(string.rep(' ', 9000) .. 'return ...')(7))
            result(select(2, load(string.rep('\\n', 5000) .. 'x = = 1', '=big')))
            result(('abc'):upper()) result(rawequal(string, ('').upper and string or nil))
            """)
        #expect(status == .completed)
        #expect(values.count == 14)
        #expect(values[0] == .boolean(false))
        #expect(values[1] == .boolean(false))
        #expect(values[2] == .text("table"))
        #expect(values[3] == .boolean(false))
        #expect(values[4].stringValue?.contains("binary") == true, "\(values[4])")
        #expect(values[4].stringValue?.contains("only text chunks can be loaded") == true, "\(values[4])")
        #expect(values[5] == .text("attempt to load a text chunk (mode is 'b')"), "stock Lua's words")
        #expect(values[6] == .text("script global"))
        #expect(values[7] == .text("given"))
        #expect(values[8] == .boolean(true))
        #expect(values[9] == .integer(42))
        #expect(values[10] == .integer(7))
        #expect(values[11] == .text("big:5001: unexpected symbol near '='"))
        #expect(values[12] == .text("ABC"))
        #expect(values[13] == .boolean(true))
    }

    @Test func tableInsertAndRemoveBehaveAsStock() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local t = {1, 2, 3}
            table.insert(t, 4) table.insert(t, 1, 0) table.insert(t, 3, 'm')
            result(table.concat(t, ','))
            result(table.remove(t)) result(table.remove(t, 1)) result(table.concat(t, ','))
            result(table.remove({})) result(#t)
            result(select(2, pcall(table.insert, t, 9, 'x')))
            result(select(2, pcall(table.insert, t)))
            result(select(2, pcall(table.remove, t, 7)))
            local log = {}
            local p = setmetatable({}, {__len = function() return 2 end,
              __index = function(_, i) return 'v' .. i end,
              __newindex = function(_, i, v) log[#log + 1] = i .. '=' .. tostring(v) end})
            table.insert(p, 1, 'x')
            result(table.concat(log, ' '))
            """)
        #expect(status == .completed)
        #expect(values.count == 10)
        #expect(values[0] == .text("0,1,m,2,3,4"))
        #expect(values[1] == .integer(4))
        #expect(values[2] == .integer(0))
        #expect(values[3] == .text("1,m,2,3"))
        #expect(values[4] == .nil)
        #expect(values[5] == .integer(4))
        #expect(values[6].stringValue?.hasSuffix("(position out of bounds)") == true, "\(values[6])")
        #expect(values[7].stringValue?.hasSuffix("wrong number of arguments to 'insert'") == true, "\(values[7])")
        #expect(values[8].stringValue?.hasSuffix("(position out of bounds)") == true, "\(values[8])")
        #expect(values[9] == .text("3=v2 2=v1 1=x"))
    }

    @Test func stringRepBehavesAsStock() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(string.rep('ab', 3)) result(string.rep('ab', 3, ', ')) result(string.rep('x', 1, '-'))
            result(string.rep('', 4, '.')) result(string.rep('ab', 0)) result(string.rep('ab', -2, ','))
            result(('xyz'):rep(5, '|'))
            local big = string.rep('abc', 100001, '-')
            local ok = #big == 100001 * 3 + 100000 and big:sub(1, 9) == 'abc-abc-a' and big:sub(-5) == 'c-abc'
            for i = 1, #big, 4099 do ok = ok and big:sub(i, i + 3) == ('abc-'):sub(((i - 1) % 4) + 1) .. ('abc-'):sub(1, ((i - 1) % 4)) end
            result(ok)
            result(select(2, pcall(string.rep, 'x', 1 << 40)))
            """)
        #expect(status == .completed)
        #expect(values.count == 9)
        #expect(Array(values.prefix(7)) == [
            .text("ababab"), .text("ab, ab, ab"), .text("x"), .text("..."), .text(""), .text(""),
            .text("xyz|xyz|xyz|xyz|xyz"),
        ])
        #expect(values.dropFirst(7).first == .boolean(true))
        #expect(values.last?.stringValue?.hasSuffix("resulting string too large") == true, "\(values.last ?? .nil)")
    }

    @Test func registeredTablesAreFreshInEveryEnvironment() throws {
        // SPEC 1: nothing a script sets in one request is visible in the next, however deep
        // in a registered value it sits; read-only views may be shared, nothing changes them.
        let r = try Recorder()
        r.sandbox.register(value: .table(LuaTable(fields: [
            ("config", .table(LuaTable(fields: [("n", .integer(1)), ("list", .table(LuaTable(array: [])))]))),
        ])), as: "data")
        r.sandbox.register(value: .lockedCopy(LuaTable(fields: [("x", .integer(1))])), as: "locked")
        r.sandbox.register(value: .readOnly(name: "fixed", LuaTable(fields: [("y", .integer(2))])), as: "fixed")
        let poison = """
            data.config.n = 99 data.config.list[1] = 'p' locked.x = 99 rawset(fixed, 'y', 99)
            result(data.config.n) result(locked.x)
            """
        let check = """
            result(data.config.n) result(#data.config.list) result(locked.x) result(fixed.y)
            result(pcall(setmetatable, locked, {})) result(echo(data.config.list))
            """
        #expect(r.run(poison).0 == .completed)
        #expect(r.run(poison).1 == [.integer(99), .integer(99)])
        let (status, values) = r.run(check)
        #expect(status == .completed)
        #expect(values == [.integer(1), .integer(0), .integer(1), .integer(2), .boolean(false), .table(LuaTable(array: []))])
    }

    @Test func osDateOfALongFormatIsTheStockResult() throws {
        // A long format is converted in slices: the result must be what one call makes.
        let r = try Recorder()
        let (status, values) = r.run("""
            local t = 1700000000
            local unit = '%Y-%m-%d %H:%M:%S %a %b %j %Ec %OS %% | '
            local one = os.date(unit, t)
            local long = os.date(string.rep(unit, 40), t)
            result(long == string.rep(one, 40))
            result(os.date('!' .. string.rep(unit, 40), t) == string.rep(os.date('!' .. unit, t), 40))
            result(os.date(string.rep('x', 300) .. '*t', t) == string.rep('x', 300) .. '*t')
            result(type(os.date('!*t', t))) result(os.date('!%Y', t))
            result(select(2, pcall(os.date, string.rep('%Y', 200) .. '%Q', t)))
            local now = os.date(string.rep('%S', 400))
            result(now == string.rep(now:sub(1, 2), 400))
            """)
        #expect(status == .completed)
        #expect(values.count == 7)
        #expect(Array(values.prefix(3)) == [.boolean(true), .boolean(true), .boolean(true)])
        #expect(values.dropFirst(3).first == .text("table"))
        #expect(values.dropFirst(4).first == .text("2023"))
        #expect(values.dropFirst(5).first?.stringValue?.contains("invalid conversion specifier '%Q'") == true)
        #expect(values.last == .boolean(true))
    }
}
