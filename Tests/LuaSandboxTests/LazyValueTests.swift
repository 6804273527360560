import Synchronization
import Testing
@testable import LuaSandbox

/// A lazy read-only value (``LuaSandbox/makeLazyValue(named:loader:)``) is made only when the
/// script first looks into it, and cannot be told from one made at once.
@Suite struct LazyValueTests {
    /// How many times a loader ran.
    private final class Count: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var current: Int { value.withLock { $0 } }
    }

    /// A recorder with a lazy `request` whose loader counts its calls.
    private struct Fixture {
        let recorder: Recorder
        let loads = Count()

        init() throws {
            recorder = try Recorder()
        }

        /// Runs `source`, which defines `f(request)`, and calls `f` with a fresh lazy value.
        func call(_ source: String) -> (RunStatus, [LuaOutput], loads: Int) {
            let sandbox = recorder.sandbox
            let loader = sandbox.addFunction { [loads] _ in
                loads.add()
                return .values([.readOnly(name: "request", LuaTable(fields: [
                    ("identifier", .text("abc")),
                    ("locales", .table(LuaTable(array: [.text("de-DE"), .text("en")]))),
                    ("content", .table(LuaTable(fields: [("title", .text("Hi"))]))),
                ]))])
            }
            recorder.results = []
            sandbox.arm(RunLimits(cpuTime: .milliseconds(500), memoryBytes: 8 << 20, deadline: .after(.seconds(5))))
            defer { sandbox.disarm() }
            guard case .compiled(let chunk) = sandbox.compile(source, chunkName: "test.lua"),
                  let env = sandbox.makeEnvironment(),
                  let value = sandbox.makeLazyValue(named: "request", loader: loader)
            else { return (.error("setup"), [], 0) }
            defer {
                sandbox.release(value)
                sandbox.release(env)
                sandbox.release(chunk)
            }
            var status = sandbox.run(chunk, in: env)
            if case .completed = status { status = sandbox.call("f", in: env, arguments: [value]) }
            return (status, recorder.results.map { $0.first ?? .nil }, loads.current)
        }
    }

    @Test func aScriptThatNeverLooksNeverLoads() throws {
        let (status, values, loads) = try Fixture().call("""
            function f(request) result(type(request)) result(rawget(request, 'identifier')) result(next(request)) end
            """)
        #expect(status == .completed)
        #expect(values == [.text("table"), .nil, .nil])
        #expect(loads == 0)
    }

    @Test(arguments: [
        "result(request.identifier)",
        "result(#request.locales)",
        "for k, v in pairs(request) do if k == 'identifier' then result(v) end end",
        "local it, s = pairs(request) result(select(2, it(s, nil)) ~= nil)",
        "result(echo(request).identifier)",
        "result(echo({ inner = { request } }).inner[1].identifier)",
    ])
    func everyWayOfLookingLoadsOnce(looking: String) throws {
        let (status, values, loads) = try Fixture().call("""
            function f(request) \(looking) result(request.identifier) result(request.content.title) end
            """)
        #expect(status == .completed)
        #expect(values.count == 3)
        #expect(values.first != .nil)
        #expect(values[1] == .text("abc"))
        #expect(values[2] == .text("Hi"))
        #expect(loads == 1)
    }

    @Test func itIsAsReadOnlyAsAnyView() throws {
        let (status, values, _) = try Fixture().call("""
            function f(request)
              result(select(2, pcall(function() request.identifier = 'x' end)))
              result(select(2, pcall(function() request.content.title = 'x' end)))
              result(pcall(setmetatable, request, {})) result(getmetatable(request))
              result(request.identifier)
            end
            """)
        #expect(status == .completed)
        #expect(values[0].stringValue?.hasSuffix("request is read-only") == true)
        #expect(values[1].stringValue?.hasSuffix("request is read-only") == true)
        #expect(values[2] == .boolean(false))
        #expect(values[3] == .boolean(false))
        #expect(values[4] == .text("abc"))
    }

    @Test func theHostReadingItMakesItToo() throws {
        let sandbox = try Recorder().sandbox
        let loads = Count()
        let loader = sandbox.addFunction { [loads] _ in
            loads.add()
            return .values([.readOnly(name: "request", LuaTable(fields: [("identifier", .text("abc"))]))])
        }
        let value = try #require(sandbox.makeLazyValue(named: "request", loader: loader))
        defer { sandbox.release(value) }
        #expect(loads.current == 0)
        let read = try sandbox.read(value).get()
        #expect(read == .table(LuaTable(fields: [("identifier", .text("abc"))])))
        _ = try sandbox.read(value).get()
        #expect(loads.current == 1)
    }
}
