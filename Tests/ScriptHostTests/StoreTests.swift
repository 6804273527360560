import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// A host whose store and categories persist in `directory`.
func persistentHost(_ directory: URL) -> ScriptHost {
    ScriptHost(configuration: HostConfiguration(stateDirectory: directory))
}

/// The request tests send for `app`.
func request(app: String) throws -> NotificationRequest {
    NotificationRequest(payload: try originalPayload(), app: app)
}

/// `store.get`, `store.set`, `store.increment` (SPEC "Store").
@Suite struct StoreTests {
    @Test func valuesKeepTheirTypesAndNilDeletes() async throws {
        let host = ScriptHost()
        #expect(try await values("""
            store.set("s", "text") store.set("i", 42) store.set("f", 2.0) store.set("b", false) store.set("gone", 1)
            store.set("gone", nil)
            """, host: host) == [])
        #expect(try await values("""
            return store.get("s"), store.get("i"), math.type(store.get("i")), store.get("f"), math.type(store.get("f")),
              store.get("b"), store.get("gone"), store.get("never")
            """, host: host) == [.text("text"), .integer(42), .text("integer"), .float(2.0), .text("float"), .bool(false), .nil, .nil])
    }

    @Test func incrementCountsFromZeroAndKeepsIntegers() async throws {
        let host = ScriptHost()
        #expect(try await values("""
            local a = store.increment("n") local b = store.increment("n", 4) local c = store.increment("n", -2)
            local f = store.increment("x", 0.5) local g = store.increment("x", 1)
            return a, b, c, math.type(c), store.get("n"), f, g, math.type(g)
            """, host: host) == [.integer(1), .integer(5), .integer(3), .text("integer"), .integer(3), .float(0.5), .float(1.5), .text("float")])
        // Integral floats given as the step still count.
        #expect(try await values("return store.increment('n', 2.0)", host: host) == [.float(5.0)])
        // Past the integer range the count goes on as a float rather than wrapping around.
        #expect(try await values("store.set('big', math.maxinteger) return store.increment('big')", host: host) == [.float(9223372036854775808.0)])
    }

    @Test func incrementClampsToMinAndMax() async throws {
        let host = ScriptHost()
        #expect(try await values("""
            local a = store.increment("badge", -1, {min = 0})
            local b = store.increment("badge", 5, {max = 3})
            local c = store.increment("badge", -1, {min = 0, max = 10})
            local d = store.increment("score", 0.5, {max = 0.25})
            return a, b, c, d, store.get("badge")
            """, host: host) == [.integer(0), .integer(3), .integer(2), .float(0.25), .integer(2)])
        // An overflow past math.maxinteger is held at the bound, an integer.
        #expect(try await values("store.set('big', math.maxinteger) local n = store.increment('big', 1, {max = math.maxinteger}) return math.type(n), n == math.maxinteger")
                == [.text("integer"), .bool(true)])
        #expect(try await raised("store.increment('x', 1, {0, 1})")?.contains("store.increment: the bounds are {min =, max =}, not a list") == true)
        #expect(try await raised("store.increment('x', 1, {min = 2, max = 1})")?.contains("store.increment: min must not be greater than max") == true)
        #expect(try await raised("store.increment('x', 1, {low = 0})")?.contains("store.increment: unknown option 'low'; options are min, max") == true)
        #expect(try await raised("store.increment('x', 1, {min = '0'})")?.contains("store.increment: min must be a finite number") == true)
        #expect(try await raised("store.increment('x', 1, 0)")?.contains("bad argument #3 to 'increment' (table {min =, max =} expected, got number)") == true)
    }

    /// With integer bounds an integer count stays an integer, at the bounds of the integer
    /// range too: a sum past 64 bits is held at its end, then clamped.
    @Test func integerBoundsKeepIntegersAtTheEndsOfTheRange() async throws {
        let host = ScriptHost()
        #expect(try await values("""
            store.set("low", math.mininteger)
            local a = store.increment("low", -1, {min = math.mininteger})
            store.set("low2", math.mininteger + 1000)
            local b = store.increment("low2", -1001, {min = math.mininteger + 1})
            store.set("high", math.maxinteger)
            local c = store.increment("high", 1, {min = math.mininteger})
            local d = store.increment("fresh", math.mininteger, {min = math.mininteger, max = 0})
            return math.type(a), a == math.mininteger, math.type(b), b == math.mininteger + 1,
              math.type(c), c == math.maxinteger, math.type(d), d == math.mininteger
            """, host: host) == [.text("integer"), .bool(true), .text("integer"), .bool(true),
                                 .text("integer"), .bool(true), .text("integer"), .bool(true)])
        // Without bounds the count past the range goes on as a float, as before.
        #expect(try await values("store.set('big', math.maxinteger) return math.type(store.increment('big'))", host: host) == [.text("float")])
    }

    @Test func wrongValuesRaiseErrors() async throws {
        let host = ScriptHost()
        #expect(try await raised("store.set('k', {})", host: host)?.contains("bad argument #2 to 'set' (string, number, boolean or nil expected, got table)") == true)
        #expect(try await raised("store.set('k', print)", host: host)?.contains("got function") == true)
        #expect(try await raised("store.set('k', '\\255')", host: host)?.contains("bad argument #2 to 'set' (string is not valid UTF-8)") == true)
        #expect(try await raised("store.set('k', 0/0)", host: host)?.contains("the number must be finite") == true)
        #expect(try await raised("store.set(1, 'v')", host: host)?.contains("bad argument #1 to 'set' (string expected, got number)") == true)
        #expect(try await raised("store.get()", host: host)?.contains("bad argument #1 to 'get' (string expected, got no value)") == true)
        #expect(try await raised("store.increment('k', '1')", host: host)?.contains("bad argument #2 to 'increment' (finite number expected, got string)") == true)
        #expect(try await raised("store.set('word', 'x') store.increment('word')", host: host)?.contains("store.increment: the value at 'word' is a string, not a number") == true)
        #expect(try await raised("store.set('flag', true) store.increment('flag')", host: host)?.contains("is a boolean, not a number") == true)
    }

    @Test func writesPast64KBAreRefusedAndChangeNothing() async throws {
        let host = ScriptHost()
        #expect(try await values("store.set('a', string.rep('x', 60000)) return #store.get('a')", host: host) == [.integer(60000)])
        let message = try await raised("store.set('b', string.rep('y', 6000))", host: host)
        #expect(message?.contains("store.set: the store would hold 66") == true, "\(message ?? "")")
        #expect(message?.contains("an app's store holds at most 64000 (64 KB)") == true)
        #expect(try await values("return store.get('b'), #store.get('a')", host: host) == [.nil, .integer(60000)])
        // A write that shrinks the store, and a delete, are always taken.
        #expect(try await values("store.set('a', nil) store.set('b', string.rep('y', 6000)) return #store.get('b')", host: host) == [.integer(6000)])
    }

    @Test func eachAppHasItsOwnStore() async throws {
        let host = ScriptHost()
        _ = try await values("store.set('who', 'news')", host: host, request: request(app: "com.example.news"))
        #expect(try await values("return store.get('who')", host: host, request: request(app: "com.example.shop")) == [.nil])
        #expect(try await values("return store.get('who')", host: host, request: request(app: "com.example.news")) == [.text("news")])
        // Without a state folder, a new host starts empty.
        #expect(try await values("return store.get('who')", host: ScriptHost(), request: request(app: "com.example.news")) == [.nil])
    }

    @Test func aStateFolderKeepsTheStoreAcrossHosts() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        _ = try await values("store.set('last', 'id-7') store.increment('badge', 3) store.set('ratio', 2.0) store.set('on', true)",
                             host: persistentHost(dir), request: request(app: "com.example.news"))
        let file = dir.appendingPathComponent("com.example.news.store.json")
        let json = try JSONValue(jsonData: Data(contentsOf: file))
        #expect(json == .object(["last": "id-7", "badge": .integer(3), "ratio": .number(2.0), "on": true]))
        #expect(try await values("return store.get('last'), store.get('badge'), math.type(store.get('ratio')), store.get('on')",
                                 host: persistentHost(dir), request: request(app: "com.example.news"))
                == [.text("id-7"), .integer(3), .text("float"), .bool(true)])
        // A host that changes the file is seen by a host that already read it.
        let reader = persistentHost(dir)
        #expect(try await values("return store.get('badge')", host: reader, request: request(app: "com.example.news")) == [.integer(3)])
        _ = try await values("store.set('badge', 10)", host: persistentHost(dir), request: request(app: "com.example.news"))
        #expect(try await values("return store.get('badge')", host: reader, request: request(app: "com.example.news")) == [.integer(10)])
    }

    @Test func appNamesBecomeSafeFileNames() {
        #expect(StateFile.fileName(app: "com.example.news") == "com.example.news")
        #expect(StateFile.fileName(app: "../etc/passwd") == "%2E.%2Fetc%2Fpasswd")
        #expect(StateFile.fileName(app: "a_b c") == "a%5Fb%20c")
        #expect(StateFile.fileName(app: "") == "_")
    }

    @Test(arguments: [
        ("not json {", "not valid JSON"),
        ("[1, 2]", "a JSON array where an object of strings, numbers and booleans belongs"),
        (#"{"badge": [1]}"#, "the value of 'badge' is a JSON array"),
        (#"{"badge": null}"#, "the value of 'badge' is a JSON null"),
    ])
    func aCorruptStoreFileIsReportedAndSetAside(contents: String, problem: String) async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("com.example.news.store.json")
        try Data(contents.utf8).write(to: file)
        let evaluation = try await evaluate("return store.increment('badge')", host: persistentHost(dir), request: request(app: "com.example.news"))
        #expect(evaluation.values == [.integer(1)])
        let warnings = evaluation.result.logs.filter { $0.level == .warn && $0.source == "host" }
        #expect(warnings.count == 1)
        #expect(warnings.first?.message.contains("the store file \(file.path) is corrupt (\(problem)") == true, "\(warnings)")
        #expect(warnings.first?.message.contains("set aside as com.example.news.store.json.corrupt-") == true)
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("com.example.news.store.json.corrupt-") }
        #expect(aside.count == 1)
        #expect(try String(contentsOf: dir.appendingPathComponent(aside[0]), encoding: .utf8) == contents)
        #expect(try JSONValue(jsonData: Data(contentsOf: file)) == .object(["badge": .integer(1)]))
    }

    @Test func aCorruptFileFoundByAReadIsReportedThere() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{".utf8).write(to: dir.appendingPathComponent("com.example.news.store.json"))
        let evaluation = try await evaluate("return store.get('badge')", host: persistentHost(dir), request: request(app: "com.example.news"))
        #expect(evaluation.values == [.nil])
        #expect(evaluation.result.logs.contains { $0.level == .warn && $0.source == "host" && $0.message.contains("is corrupt") })
    }

    @Test func aStateFolderThatCannotBeWrittenIsAnError() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A file where the folder should be.
        let blocked = dir.appendingPathComponent("state")
        try Data().write(to: blocked)
        let message = try await raised("store.set('k', 1)", host: persistentHost(blocked), request: request(app: "com.example.news"))
        #expect(message?.contains("store: cannot") == true, "\(message ?? "")")
    }

    /// SPEC: `store.increment` is atomic even when requests of one app run at once.
    @Test(arguments: [false, true]) func concurrentIncrementsOfOneAppLoseNothing(onDisk: Bool) async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let host = onDisk ? persistentHost(dir) : ScriptHost()
        let script = Script(name: "count.lua", source: """
            function didReceive(request, content)
              for i = 1, 100 do content.badge = store.increment("badge") end
            end
            """)
        let results = try await withThrowingTaskGroup(of: DeliveryResult.self) { group in
            for _ in 0..<8 {
                let request = try request(app: "com.example.news")
                group.addTask { await host.deliver(request, script: .script(script)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.outcome == .completed }, "\(results.map(\.reason))")
        #expect(Set(results.compactMap(\.content.badge)).count == 8)
        #expect(try await values("return store.get('badge')", host: host, request: request(app: "com.example.news")) == [.integer(800)])
        if onDisk {
            let json = try JSONValue(jsonData: Data(contentsOf: dir.appendingPathComponent("com.example.news.store.json")))
            #expect(json == .object(["badge": .integer(800)]))
        }
    }
}
