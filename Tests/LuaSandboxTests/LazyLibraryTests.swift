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
    ]

    @Test(arguments: ["string", "math", "table", "data"], firstUses)
    func theFirstUseSeesTheWholeCopy(library: String, use: String) throws {
        let r = try Recorder()
        r.sandbox.register(value: .table(LuaTable(fields: [
            ("config", .table(LuaTable(fields: [("n", .integer(1))]))), ("name", .text("x")),
        ])), as: "data")
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
