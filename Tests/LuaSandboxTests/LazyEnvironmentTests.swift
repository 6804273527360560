import Testing
@testable import LuaSandbox

/// A run's environment takes each global when the script first reads it: whatever the script
/// does first, it sees what an environment holding every global at once shows.
@Suite struct LazyEnvironmentTests {
    /// First looks at `_G` as a whole, past its metamethods or through them.
    static let firstLooks = [
        "local n = 0 for _ in pairs(_G) do n = n + 1 end result(n)",
        "local n = 0 local k = next(_G) while k do n = n + 1 k = next(_G, k) end result(n)",
        "result(type(rawget(_G, 'math'))) result(type(rawget(_G, 'print')))",
        "result(rawlen(_G)) result(#_G)",
        "result(getmetatable(_G) == nil)",
        "result(_G._G == _G) result(_ENV == _G)",
        "result(type(load('return math', 'x', 't', _G)()))",
        "rawset(_G, 'added', 1) local n = 0 for _ in pairs(_G) do n = n + 1 end result(n)",
        "added = 1 local n = 0 for _ in pairs(_G) do n = n + 1 end result(n)",
        "setmetatable(_G, {}) local n = 0 for _ in pairs(_G) do n = n + 1 end result(n)",
        "local names = {} for k in pairs(_G) do names[#names + 1] = k end table.sort(names) result(table.concat(names, ','))",
    ]

    @Test(arguments: firstLooks)
    func theFirstLookSeesEveryGlobal(look: String) throws {
        let r = try Recorder()
        // the same look after every global was read (and so given) first
        let given = "for _, k in ipairs({'print', 'string', 'math', 'table', 'utf8', 'coroutine', 'os', 'pairs'}) do local _ = _G[k] end "
        let (status, first) = r.run(look)
        let (again, after) = r.run(given + look)
        #expect(status == .completed, "\(status)")
        #expect(again == .completed, "\(again)")
        #expect(first == after)
        #expect(!first.isEmpty)
    }

    /// A global the script sets to nil stays nil, whether it had read it before or not, and one
    /// it assigns before reading keeps the script's value.
    @Test func aGlobalSetToNilStaysNil() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local s = string
            string = nil
            result(string == nil) result(rawget(_G, 'string') == nil) result(s.upper('a'))
            math = nil
            result(math == nil)
            print = 7
            result(print)
            local n = 0 for k in pairs(_G) do if k == 'math' or k == 'string' then n = n + 1 end end
            result(n)
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.boolean(true), .boolean(true), .string("A"), .boolean(true), .integer(7), .integer(0)])
    }

    /// A name the script sets to nil and then assigns again (after reading it, or after
    /// assigning it first) still stands for what it gave: the library `require` returns stays
    /// the table the script had, as stock Lua's package.loaded keeps it.
    @Test func aNameAssignedAgainKeepsWhatItGave() throws {
        let r = try Recorder()
        guard case .compiled(let maker) = r.sandbox.compile("local _, given = ... return given", chunkName: "maker"),
              r.sandbox.register(madeBy: maker, as: "given", passing: r.sandbox.addFunction { _ in .none }) else {
            Issue.record("given was not made")
            return
        }
        let (status, values) = r.run("""
            local s, m = string, math
            m.mark = 1
            string = nil string = 1
            math = nil math = 2
            result(given('string') == s) result(given('math') == m) result(given('math').mark)
            table = 1
            local t = given('table')
            table = nil table = 2
            result(given('table') == t) result(table) result(math)
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.boolean(true), .boolean(true), .integer(1), .boolean(true), .integer(2), .integer(2)])
    }

    /// The memory limit stopping a script while its environment gives a global, or takes a
    /// template name the script assigns first, leaves that name as it was: what runs after in
    /// the same environment (a best attempt, with room of its own) reads the global, or the
    /// script's value, never nil. Scans the room left for that first read or assignment.
    @Test(arguments: [
        "a1, a2, a3, a4, a5, a6, a7 = 1, 1, 1, 1, 1, 1, 1 local x = os",
        "a1, a2, a3, a4, a5, a6, a7 = 1, 1, 1, 1, 1, 1, 1 os = 1",
        "a1, a2, a3, a4, a5, a6, a7 = 1, 1, 1, 1, 1, 1, 1 local s = os os = nil os = 1",
    ])
    func theMemoryLimitLeavesAGlobalAsItWas(first: String) throws {
        var stopped = 0
        for room in stride(from: 0, through: 1536, by: 8) {
            let r = try Recorder()
            let sandbox = r.sandbox
            guard case .compiled(let chunk) = sandbox.compile(first, chunkName: "first.lua"),
                  case .compiled(let after) = sandbox.compile("result(type(os)) result(type(string)) result(tostring(a1)) result(tostring(a7)) result(type(utf8))", chunkName: "after.lua"),
                  let env = sandbox.makeEnvironment() else {
                Issue.record("no environment")
                return
            }
            sandbox.collectGarbage()
            sandbox.arm(RunLimits(cpuTime: .milliseconds(500), memoryBytes: sandbox.memoryUsed + room, deadline: .after(.seconds(5))))
            let status = sandbox.run(chunk, in: env)
            sandbox.disarm()
            guard status == .limit(.memory) else { continue }
            stopped += 1
            sandbox.arm(RunLimits(cpuTime: .milliseconds(500), memoryBytes: 8 << 20, deadline: .after(.seconds(5))))
            let again = sandbox.run(after, in: env)
            sandbox.disarm()
            #expect(again == .completed, "\(again)")
            let seen = r.results.suffix(5).map { $0.first ?? .nil }
            #expect(seen.first == .string("table") || seen.first == .string("number"), "room \(room): \(seen)")
            sandbox.release(env)
            sandbox.release(chunk)
            sandbox.release(after)
        }
        #expect(stopped > 0)
    }

    /// Each run has its own environment: what one run sets or removes, the next does not see.
    @Test func aRunsGlobalsAreItsOwn() throws {
        let r = try Recorder()
        _ = r.run("string = nil math.added = 1 leaked = true")
        let (status, values) = r.run("result(type(string)) result(math.added) result(leaked)")
        #expect(status == .completed, "\(status)")
        #expect(values == [.string("table"), .nil, .nil])
    }

    /// A strict-mode metatable on `_G` (an error for an undefined global) works as in stock Lua,
    /// and the globals stay readable under it.
    @Test func aStrictModeMetatableWorks() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            setmetatable(_G, {__index = function(_, name) error("undefined global " .. name, 2) end})
            local ok, message = pcall(function() return undefinedName end)
            result(ok) result(message:match("undefined global undefinedName") ~= nil)
            result(type(string.format)) result(getmetatable(_G) ~= nil)
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.boolean(false), .boolean(true), .string("function"), .boolean(true)])
    }
}
