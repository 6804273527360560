import Testing
@testable import LuaSandbox

/// A run's library tables (string, math, a registered module, ...) are copied when the script
/// first uses them: whatever the first use is, the script sees what a copy made at once shows.
@Suite struct LazyLibraryTests {
    /// First uses that look past metamethods, or go through them, each as the first thing a
    /// run does with the table `T`.
    static let firstUses = [
        "result(rawget(T, 'floor') ~= nil or rawget(T, 'upper') ~= nil or rawget(T, 'config') ~= nil)",
        "result(rawlen(T))",
        "result(next(T) ~= nil)",
        "local n = 0 for _ in pairs(T) do n = n + 1 end result(n)",
        "local n = 0 local k = next(T) while k do n = n + 1 k = next(T, k) end result(n)",
        "result(getmetatable(T))",
        "result(#T)",
        "result(type(T.floor or T.upper or T.config))",
        "rawset(T, 'added', 1) local n = 0 for _ in pairs(T) do n = n + 1 end result(n)",
        "T.added = 1 local n = 0 for _ in pairs(T) do n = n + 1 end result(n)",
        "setmetatable(T, {}) local n = 0 for _ in pairs(T) do n = n + 1 end result(n)",
        "local mt = setmetatable({}, T) result(rawget(T, 'floor') ~= nil or rawget(T, 'upper') ~= nil or rawget(T, 'config') ~= nil)",
        "local e = echo(T) local n = 0 for _ in pairs(e) do n = n + 1 end result(n)",
        "result(select('#', table.unpack(T)))",
        "table.insert(T, 5) result(#T) result(T[#T])",
        "result(table.remove(T)) result(#T)",
        "local n = 0 for _ in ipairs(T) do n = n + 1 end result(n)",
        "table.move({7, 8}, 1, 2, 2, T) result(#T) result(rawget(T, 2))",
        "result(load('return floor or upper or config', 'x', 't', T)() ~= nil)",
        "table.sort(T) result(#T)",
        "result(table.concat(T, ','))",
    ]

    @Test(arguments: ["string", "math", "table", "data", "list"], firstUses)
    func theFirstUseSeesTheWholeCopy(library: String, use: String) throws {
        let r = try Recorder()
        r.sandbox.register(value: .table(LuaTable(fields: [
            ("config", .table(LuaTable(fields: [("n", .integer(1))]))), ("name", .text("x")),
        ])), as: "data")
        r.sandbox.register(value: .table(LuaTable(array: [.integer(3), .integer(1), .integer(2)])), as: "list")
        let script = "local T = \(library) " + use
        // the same use after the table was touched (and so copied) first
        let touched = "local T = \(library) local _ = T.nothing " + use
        let (status, first) = r.run(script)
        let (again, after) = r.run(touched)
        #expect(status == .completed, "\(status)")
        #expect(again == .completed, "\(again)")
        #expect(first == after)
        #expect(!first.isEmpty)
    }

    /// `pairs` gives the `next` the script sees, as stock Lua's `pairs` gives its own `next`,
    /// for a library before and after its first use as for any table.
    @Test func pairsGivesTheScriptsNext() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(pairs({}) == next) result(pairs(string) == next) result(pairs(math) == next)
            result(pairs(string) == next)
            local f, t, k = pairs(setmetatable({}, {__pairs = function(t) return 1, 2, 3 end}))
            result(f + t + k)
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.boolean(true), .boolean(true), .boolean(true), .boolean(true), .integer(6)])
    }

    /// A table the host registered as an empty JSON array is one in every run, whether the
    /// script's first use of it is the host's copy or not.
    @Test func anEmptyArrayStaysAnArray() throws {
        let r = try Recorder()
        r.sandbox.register(value: .table(LuaTable(array: [])), as: "empty")
        let (status, values) = r.run("result(empty) result(empty)")
        #expect(status == .completed, "\(status)")
        #expect(values.count == 2)
        for value in values {
            guard case .table(let table) = value else {
                Issue.record("not a table: \(value)")
                continue
            }
            #expect(table.isArray && table.count == 0)
        }
    }

    @Test func whatARunAddsToALibraryStaysInThatRun() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            string.shout = function(s) return s:upper() .. '!' end
            result(('hi'):shout()) rawset(math, 'tau', 2 * math.pi) result(math.tau)
            """)
        #expect(status == .completed)
        #expect(values == [.text("HI!"), .number(2 * Double.pi)])
        let (next, later) = r.run("result(string.shout) result(rawget(math, 'tau')) result(('hi'):upper())")
        #expect(next == .completed)
        #expect(later == [.nil, .nil, .text("HI")])
    }

    @Test func pairsAndNextAreWhatStockLuaHas() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(select(1, pairs({})) == next)
            result(select(1, pairs(math)) == next)
            local t = setmetatable({}, {__pairs = function(t) return function(_, k) if not k then return 1, 'one' end end, t, nil end})
            for k, v in pairs(t) do result(v) end
            local co = coroutine.wrap(function()
              local y = setmetatable({}, {__pairs = function(t) coroutine.yield('in __pairs') return next, {a = 1}, nil end})
              for k, v in pairs(y) do result(k) end
              return 'done'
            end)
            result(co()) result(co())
            result(pcall(pairs))
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.boolean(true), .boolean(true), .text("one"), .text("in __pairs"), .text("a"), .text("done"), .boolean(false)])
    }
}
