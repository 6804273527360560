import Foundation
import Synchronization
import Testing
@testable import ScriptHost

/// `hooks.NAME(...)` and ``ScriptHost/register(hook:_:)``.
@Suite struct HooksTests {
    @Test func valuesCrossBothWays() async throws {
        let host = ScriptHost()
        let received = Mutex<[HookValue]>([])
        host.register(hook: "echo") { args in
            received.withLock { $0 = args }
            return args
        }
        let shown = try await values("""
            local s, i, f, t, n, b, list, map = hooks.echo("a\\0\\255", 7, 2.5, true, nil, false, {1, "two", {3}}, {k = "v", n = 1.0})
            return s, i, f, t, n, b, #list, list[2], list[3][1], map.k, map.n, math.type(map.n)
            """, host: host)
        #expect(shown == [
            .bytes([0x61, 0, 0xff]), .integer(7), .float(2.5), .bool(true), .nil, .bool(false),
            .integer(3), .text("two"), .integer(3), .text("v"), .float(1.0), .text("float"),
        ])
        let args = received.withLock { $0 }
        #expect(args.count == 8)
        #expect(args.first == .string([0x61, 0, 0xff]))
        #expect(args[1] == .integer(7))
        #expect(args.first?.textValue == nil)
        #expect(HookValue.text("two").textValue == "two")
        #expect(args[2] == .number(2.5))
        #expect(args[4] == .nil)
        #expect(args[6] == .array([.integer(1), .text("two"), .array([.integer(3)])]))
        #expect(args[7] == .table([.text("k"): .text("v"), .text("n"): .number(1.0)]))
    }

    @Test func aHookThatThrowsGivesNilAndItsMessage() async throws {
        struct Locked: Error, CustomStringConvertible { var description: String { "the keychain is locked" } }
        let host = ScriptHost()
        host.register(hook: "refuse") { _ in throw HookError("no key for this account") }
        host.register(hook: "locked") { _ in throw Locked() }
        #expect(try await values("return hooks.refuse(\"x\")", host: host) == [.nil, .text("no key for this account")])
        #expect(try await values("return hooks.locked()", host: host) == [.nil, .text("the keychain is locked")])
    }

    @Test func valuesAHookCannotTakeOrGiveAreRefused() async throws {
        let host = ScriptHost()
        host.register(hook: "echo") { $0 }
        host.register(hook: "giveDeep") { _ in [(0..<40).reduce(HookValue.integer(1)) { inner, _ in .array([inner]) }] }
        host.register(hook: "giveTableKey") { _ in [.text("ok"), .table([.array([]): .integer(1)])] }
        let message = try await raised("return hooks.echo(1, print)", host: host)
        #expect(message?.contains("bad argument #2 to 'echo' (hooks take strings, numbers, booleans, nil and tables of them, got a function)") == true)
        #expect(try await raised("return hooks.echo({f = print})", host: host)?.contains("got a function") == true)
        #expect(try await raised("local t = {} t.t = t return hooks.echo(t)", host: host)?.contains("bad argument #1 to 'echo'") == true)
        #expect(try await raised("return hooks.echo(json.null)", host: host)?.contains("got json.null") == true)
        #expect(try await values("return hooks.giveDeep()", host: host) == [.nil, .text("hook 'giveDeep' returned a table nested deeper than 32 levels, which scripts cannot take")])
        #expect(try await values("return hooks.giveTableKey()", host: host) == [.nil, .text("hook 'giveTableKey' returned a table used as a key, which scripts cannot take")])
    }

    @Test func emptyArraysAndEmptyTablesStayApart() async throws {
        let host = ScriptHost()
        host.register(hook: "empties") { _ in [.array([]), .table([:])] }
        host.register(hook: "echo") { $0 }
        #expect(try await values("local a, t = hooks.empties() return json.encode(a), json.encode(t)", host: host) == [.text("[]"), .text("{}")])
        #expect(try await values("return json.encode(hooks.echo(json.decode('[]'))), json.encode(hooks.echo({}))", host: host) == [.text("[]"), .text("{}")])
    }

    @Test func hooksIsATableEvenWithoutHooks() async throws {
        #expect(try await values("return type(hooks), hooks.missing") == [.text("table"), .nil])
        #expect(try await raised("return hooks.missing()")?.contains("attempt to call a nil value (field 'missing')") == true)
    }

    @Test func aHookRegisteredAfterSandboxesExistIsReachable() async throws {
        let host = ScriptHost()
        // The app's sandbox is made and pooled by this request, before the hook exists.
        #expect(try await values("return hooks.late", host: host) == [.nil])
        host.register(hook: "late") { _ in [.text("here")] }
        #expect(try await values("return hooks.late()", host: host) == [.text("here")])
        // Registering again replaces the function; other apps see hooks too.
        host.register(hook: "late") { _ in [.text("replaced")] }
        #expect(try await values("return hooks.late()", host: host) == [.text("replaced")])
        let other = NotificationRequest(payload: try originalPayload(), app: "com.example.other")
        #expect(try await values("return hooks.late()", host: host, request: other) == [.text("replaced")])
    }

    @Test func scriptsCannotChangeHooksForLaterRequests() async throws {
        let host = ScriptHost()
        host.register(hook: "name") { _ in [.text("host")] }
        #expect(try await values("hooks.name = function() return 'script' end hooks.extra = 1 return hooks.name()", host: host) == [.text("script")])
        #expect(try await values("return hooks.name(), hooks.extra", host: host) == [.text("host"), .nil])
    }

    @Test func aHookThatBlocksPastTheDeadlineStillDeliversOnTime() async throws {
        let host = ScriptHost()
        let returned = Mutex(false)
        host.register(hook: "slow") { _ in
            Thread.sleep(forTimeInterval: 2)
            returned.withLock { $0 = true }
            return [.text("too late")]
        }
        let limits = ScriptLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, time: .milliseconds(300))
        let start = ContinuousClock.now
        let result = try await deliver("""
            function didReceive(request, content)
              content.title = "before"
              content.body = hooks.slow()
            end
            function bestAttempt(content, reason) content.subtitle = "best " .. reason.kind end
            """, host: host, limits: limits)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .milliseconds(1200), "delivered after \(elapsed)")
        #expect(!returned.withLock { $0 })
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .time)
        #expect(result.content.title == "before")
        #expect(result.content.body == "original")
        #expect(result.content.subtitle == "best time")
    }

    @Test func aHookThatBlocksInBestAttemptIsBoundedByItsTime() async throws {
        let host = ScriptHost()
        host.register(hook: "slow") { _ in
            Thread.sleep(forTimeInterval: 2)
            return [.text("too late")]
        }
        let start = ContinuousClock.now
        let result = try await deliver("""
            function didReceive(request, content) error("boom") end
            function bestAttempt(content, reason) content.subtitle = "trying" content.body = hooks.slow() end
            """, host: host, limits: testLimits)
        #expect(ContinuousClock.now - start < .milliseconds(1200))
        #expect(result.reason?.kind == .error)
        #expect(result.content.subtitle == "trying")
        #expect(result.content.body == "original")
    }
}
