import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// `http.post` over a real connection: the policy is checked on the script's `https` URL, and
/// the network the test gives the host sends it to a server on 127.0.0.1 that the test starts.
@Suite(.serialized) struct HTTPPostServerTests {
    static let receipt = "https://api.example.com/receipt?id=7"

    func deliver(_ source: String, to server: PostTestServer, limits: ScriptLimits? = nil) async throws -> DeliveryResult {
        let host = ScriptHost(configuration: HostConfiguration(allowPostHosts: ["api.example.com"]), network: server.transport)
        let request = NotificationRequest(payload: try originalPayload(), app: "com.example.app", limits: limits)
        return await host.deliver(request, script: .script(Script(name: "rules.lua", source: source)))
    }

    /// A script that posts `body` (Lua) with `options` (Lua) and writes the answer into the title.
    func posting(body: String = #""{}""#, options: String = "nil") -> String {
        #"function didReceive(r, c) local s, b = http.post("\#(Self.receipt)", \#(body), \#(options)) c.title = tostring(s) .. "|" .. tostring(b) end"#
    }

    @Test func thePostReachesTheServerWithItsMethodHeadersAndBody() async throws {
        let server = try PostTestServer { _ in PostTestAnswer(status: 202, body: Array(#"{"ok":true}"#.utf8)) }
        let result = try await deliver(
            posting(body: #"json.encode({id = "m1"})"#, options: #"{method = "PUT", headers = {Authorization = "Basic a2V5Og=="}}"#), to: server)
        #expect(result.content.title == #"202|{"ok":true}"#)
        let received = try #require(server.received.first)
        #expect(server.received.count == 1)
        #expect(received.method == "PUT")
        #expect(received.path == "/receipt?id=7")
        #expect(received.headers["authorization"] == "Basic a2V5Og==")
        #expect(received.headers["content-type"] == "application/json")
        #expect(received.body == Array(#"{"id":"m1"}"#.utf8))
        #expect(result.posts.first?.method == "PUT")
        #expect(result.posts.first?.headers == ["Authorization": "Basic a2V5Og=="])
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectIsRefusedAndItsTargetNeverContacted(status: Int) async throws {
        let target = try PostTestServer { _ in PostTestAnswer(status: 200, body: Array("reached".utf8)) }
        let server = try PostTestServer { _ in PostTestAnswer(status: status, headers: ["Location": "http://127.0.0.1:\(target.port)/elsewhere"]) }
        let result = try await deliver(posting(), to: server)
        #expect(result.content.title == "nil|not allowed: the server redirected (\(status)); posts follow no redirects")
        #expect(server.received.count == 1)
        try await Task.sleep(for: .milliseconds(100))
        #expect(target.received.isEmpty)
    }

    @Test func aResponseOver64KBIsRefused() async throws {
        let server = try PostTestServer { _ in PostTestAnswer(body: [UInt8](repeating: 0x79, count: 65537)) }
        let result = try await deliver(posting(), to: server)
        #expect(result.content.title == "nil|too large: the response is more than 65536 bytes")
        let fits = try PostTestServer { _ in PostTestAnswer(body: [UInt8](repeating: 0x79, count: 65536)) }
        let whole = try await deliver(#"function didReceive(r, c) local s, b = http.post("\#(Self.receipt)", "{}") c.title = s .. "|" .. #b end"#, to: fits)
        #expect(whole.content.title == "200|65536")
    }

    @Test func aBodyOver64KBIsRefusedBeforeAnythingIsSent() async throws {
        let server = try PostTestServer { _ in PostTestAnswer() }
        let result = try await deliver(posting(body: #"string.rep("x", 65537)"#), to: server)
        #expect(result.content.title == "nil|too large: the body is 65537 bytes; a post may send at most 65536")
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.received.isEmpty)
        #expect(result.posts.isEmpty)
        let fits = try await deliver(posting(body: #"string.rep("x", 65536)"#), to: server)
        #expect(fits.content.title == "200|")
        #expect(server.received.first?.body.count == 65536)
    }

    @Test func theDeadlineBoundsASlowServer() async throws {
        let server = try PostTestServer { _ in PostTestAnswer(delayMs: 5000) }
        let limits = ScriptLimits(cpuTime: .milliseconds(200), memoryBytes: 8 << 20, time: .milliseconds(300))
        let start = ContinuousClock.now
        let result = try await deliver(posting(), to: server, limits: limits)
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .time)
        #expect(ContinuousClock.now - start < .seconds(2))
        server.stop()
    }

    @Test func itsOwnTimeoutBoundsASlowServerAndTheScriptGoesOn() async throws {
        let server = try PostTestServer { _ in PostTestAnswer(delayMs: 5000) }
        let start = ContinuousClock.now
        let result = try await deliver(posting(options: "{timeout = 0.1}"), to: server)
        #expect(result.outcome == .completed)
        #expect(result.content.title == "nil|timeout: no answer before the deadline")
        #expect(ContinuousClock.now - start < .seconds(2))
        server.stop()
    }

    /// The response is a Lua string of the script's state: its bytes count against the memory
    /// limit like any the script makes. Under the same limit a small answer fits and a 64 KB one
    /// does not (a state and this script take about 40 KB; with a 64 KB answer they need about
    /// 110 KB).
    @Test func theResponseBytesAreChargedToTheScriptsMemory() async throws {
        let source = #"function didReceive(r, c) local s, b = http.post("\#(Self.receipt)", "{}") c.title = tostring(s) .. "|" .. #b end"#
        let limits = ScriptLimits(cpuTime: .milliseconds(500), memoryBytes: 75_000, time: .seconds(5))
        let small = try PostTestServer { _ in PostTestAnswer(body: [UInt8](repeating: 0x79, count: 16)) }
        let fits = try await deliver(source, to: small, limits: limits)
        #expect(fits.content.title == "200|16")
        let large = try PostTestServer { _ in PostTestAnswer(body: [UInt8](repeating: 0x79, count: 65536)) }
        let charged = try await deliver(source, to: large, limits: limits)
        #expect(charged.outcome == .fallback)
        #expect(charged.reason?.kind == .memory)
    }
}
