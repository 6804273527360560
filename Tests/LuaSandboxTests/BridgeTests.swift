import CLuaSandbox
import CLuaSandboxTesting
import Synchronization
import Testing
@testable import LuaSandbox

@Suite struct BridgeTests {
    @Test func scalarsCrossBothWays() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(echo(nil)) result(echo(true)) result(echo(42)) result(echo(2.5))
            result(echo(2.0)) result(echo("h\\0i")) result(math.type(echo(7)))
            result(math.type(echo(7.0)))
            """)
        #expect(status == .completed)
        #expect(values == [
            .nil, .boolean(true), .integer(42), .number(2.5), .number(2.0),
            .string(LuaString(bytes: [104, 0, 105])), .text("integer"), .text("float"),
        ])
    }

    @Test func tablesBecomeArraysOrPairs() throws {
        let r = try Recorder()
        let (status, values) = r.run("result({1, 2, 3}) result({a = 1}) result({}) result({[1] = 'x', [3] = 'y'})")
        #expect(status == .completed)
        #expect(values[0] == .table(LuaTable(array: [.integer(1), .integer(2), .integer(3)])))
        #expect(values[1] == .table(LuaTable(fields: [("a", .integer(1))])))
        #expect(values[2] == .table(LuaTable(pairs: [])))
        guard case .table(let sparse) = values[3] else { Issue.record("not a table"); return }
        #expect(!sparse.isArray)
        #expect(sparse.count == 2)
    }

    @Test func cyclesAndDepthAreMarkedNotFollowed() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local t = {} t.self = t result(t)
            local deep = {} local cur = deep for i = 1, 200 do cur.next = {} cur = cur.next end result(deep)
            result(function() end) result(coroutine.create(function() end))
            """)
        #expect(status == .completed)
        #expect(values[0] == .table(LuaTable(fields: [("self", .cycle)])))
        var depth = 0
        var cursor = values[1]
        while case .table(let t) = cursor { depth += 1; cursor = t["next"] }
        #expect(cursor == .tooDeep)
        #expect(depth == 100)
        #expect(values[2] == .unsupported("function"))
        #expect(values[3] == .unsupported("thread"))
    }

    @Test func aValueSharedOverAndOverIsCappedAtTheMemoryLimit() throws {
        // A table met twice is encoded twice: 16 references to one 1 MiB string make 16 MiB
        // for the host, twice what the state may hold.
        let r = try Recorder()
        let (status, values) = r.run("""
            local s = string.rep('x', 1 << 20)
            local t = {} for i = 1, 16 do t[i] = s end
            local ok, err = pcall(echo, t)
            result(ok) result(err)
            result(#echo({s, s, s, s}))
            """)
        #expect(status == .completed)
        #expect(values.count == 3)
        #expect(values.first == .boolean(false))
        #expect(values.dropFirst().first?.stringValue?.contains("value too large to convert") == true)
        #expect(values.last == .integer(4))
    }

    @Test func aSmallTableSharedAMillionTimesIsRefused() throws {
        // 1,000 rows that are one row of 1,000 references to one empty table: 40 KB in the
        // state, five bytes a table in the encoding, but a million tables in the host's copy.
        let r = try Recorder()
        let (status, values) = r.run("""
            local leaf = {} local row = {} for i = 1, 1000 do row[i] = leaf end
            local list = {} for i = 1, 1000 do list[i] = row end
            local ok, err = pcall(echo, list)
            result(ok) result(err)
            result(#echo({row, row, row}))
            """)
        #expect(status == .completed)
        #expect(values.first == .boolean(false))
        #expect(values.dropFirst().first?.stringValue?.contains("value too large to convert") == true)
        #expect(values.last == .integer(3))
    }

    @Test func encodingAHostCallsArgumentsIsChargedToTheScript() throws {
        // {x, x} nested 22 deep is four million leaves for the encoder: its work counts
        // against the CPU budget inside the call, so no call runs long past it.
        let r = try Recorder()
        let before = currentThreadCPUTime()
        let (status, _) = r.run("""
            local x = {1} for i = 1, 22 do x = {x, x} end
            while true do pcall(echo, x) end
            """, limits: RunLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, deadline: .after(.seconds(10))))
        let used = (currentThreadCPUTime() - before).milliseconds
        #expect(status == .limit(.cpu))
        #expect(used < 130, "used \(used) ms")
    }

    @Test func aHostFunctionThatRunsLuaGetsItsOwnResultsBack() throws {
        // The host-call scratch buffer belongs to the call in progress: Lua that a host
        // function runs cannot call the host, and the outer results are the outer ones.
        let r = try Recorder()
        let sandbox = r.sandbox
        let env = Mutex<LuaEnvironment?>(nil)
        let inner = Mutex<RunStatus?>(nil)
        sandbox.register("outer") { _ in
            let status = env.withLock { $0 }.map { sandbox.call("inner", in: $0, arguments: []) }
            inner.withLock { $0 = status }
            return .values([.text("outer")])
        }
        sandbox.arm(RunLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, deadline: nil))
        defer { sandbox.disarm() }
        guard case .compiled(let chunk) = sandbox.compile("""
            function inner() echo(1, 2, 3) end
            function main() result(outer()) end
            """, chunkName: "nested.lua"), let environment = sandbox.makeEnvironment() else {
            Issue.record("setup")
            return
        }
        env.withLock { $0 = environment }
        #expect(sandbox.run(chunk, in: environment) == .completed)
        #expect(sandbox.call("main", in: environment, arguments: []) == .completed)
        #expect(r.results.map { $0.first ?? .nil } == [.text("outer")])
        guard case .error(let message) = inner.withLock({ $0 }) else {
            Issue.record("inner: \(String(describing: inner.withLock { $0 }))")
            return
        }
        #expect(message.hasSuffix("a host function cannot run Lua that calls the host"))
    }

    @Test func aBigHostCallLeavesNoBigBuffersBehind() throws {
        let r = try Recorder()
        let (status, values) = r.run("result(#echo(string.rep('x', 3 << 20)))")
        #expect(status == .completed)
        #expect(values == [.integer(3 << 20)])
        #expect(pss_testing_scratch_bytes(r.sandbox.context) <= 128 * 1024)
    }

    @Test func emptyJSONArraysStayArrays() throws {
        let r = try Recorder()
        r.sandbox.register(value: .table(LuaTable(fields: [("list", .table(LuaTable(array: []))), ("obj", .table(LuaTable(pairs: [])))])), as: "data")
        let (status, values) = r.run("result(data.list) result(data.obj) result(#data.list)")
        #expect(status == .completed)
        #expect(values[0] == .table(LuaTable(array: [])))
        #expect(values[1] == .table(LuaTable(pairs: [])))
        #expect(values[2] == .integer(0))
    }

    @Test func jsonNullIsOneLockedValue() throws {
        let r = try Recorder()
        r.sandbox.registerNull(as: "null", in: "json")
        let (status, values) = r.run("""
            result(echo(json.null) == json.null) result(tostring(json.null)) result(type(json.null))
            result(getmetatable(json.null)) result(pcall(setmetatable, json.null, {}))
            """)
        #expect(status == .completed)
        #expect(values == [.boolean(true), .text("null"), .text("userdata"), .boolean(false), .boolean(false)])
    }

    @Test func hostErrorsCarryTheCallersPosition() throws {
        let r = try Recorder()
        let (status, _) = r.run("local x = 1\nfail('content has no field \\'titel\\'')")
        #expect(status == .error("test.lua:2: content has no field 'titel'"))
        let (caught, values) = r.run("result(select(2, pcall(fail, 'nope')))")
        #expect(caught == .completed)
        #expect(values == [.text("nope")])
    }

    @Test func readOnlyViewsRefuseWritesButRead() throws {
        let r = try Recorder()
        r.sandbox.register(value: .readOnly(name: "request", LuaTable(fields: [
            ("identifier", .text("abc")),
            ("locales", .table(LuaTable(array: [.text("de-DE"), .text("en")]))),
        ])), as: "request")
        let (status, values) = r.run("""
            result(request.identifier) result(#request.locales) result(request.locales[2])
            result(pcall(function() request.identifier = 'x' end))
            result(select(2, pcall(function() request.locales[1] = 'x' end)))
            result(pcall(setmetatable, request, {})) result(getmetatable(request))
            local n = 0 for k, v in pairs(request) do n = n + 1 end result(n)
            local l = {} for i, v in ipairs(request.locales) do l[i] = v end result(l)
            result(echo(request.locales))
            """)
        #expect(status == .completed)
        #expect(values[0] == .text("abc"))
        #expect(values[1] == .integer(2))
        #expect(values[2] == .text("en"))
        #expect(values[3] == .boolean(false))
        #expect(values[4].stringValue?.hasSuffix("request is read-only") == true)
        #expect(values[5] == .boolean(false))
        #expect(values[6] == .boolean(false))
        #expect(values[7] == .integer(2))
        #expect(values[8] == .table(LuaTable(array: [.text("de-DE"), .text("en")])))
        #expect(values[9] == .table(LuaTable(array: [.text("de-DE"), .text("en")])))
    }

    @Test func printAndFormatPrepareOneString() throws {
        let r = try Recorder()
        var lines: [String] = []
        r.sandbox.register("print", arguments: .printed) { call in lines.append(call[0].stringValue ?? "?"); return .none }
        r.sandbox.register("info", in: "log", arguments: .formatted) { call in lines.append(call[0].stringValue ?? "?"); return .none }
        let status = runScript("print('a', 1, nil, true) log.info('%s=%d', 'n', 5)", in: r.sandbox)
        #expect(status == .completed)
        #expect(lines == ["a\t1\tnil\ttrue", "n=5"])
    }
}
