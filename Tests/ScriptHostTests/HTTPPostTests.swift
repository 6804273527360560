import FixtureTransports
import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// `http.post`: the policy, the sizes, the deadline, `bestAttempt`, and what is recorded.
@Suite(.serialized) struct HTTPPostTests {
    static let receipt = "https://api.example.com/receipt"

    func deliver(
        _ source: String, answers: [String: PostAnswer] = [receipt: PostAnswer(status: 202, body: #"{"ok":true}"#)],
        allow: Set<String> = ["api.example.com"], limits: ScriptLimits? = nil
    ) async throws -> DeliveryResult {
        let host = ScriptHost(configuration: HostConfiguration(allowPostHosts: allow, offline: true))
        let request = NotificationRequest(payload: try originalPayload(), app: "com.example.app", limits: limits)
        return await host.deliver(request, script: .script(Script(name: "rules.lua", source: source)), answers: ScriptHostTests.answers(http: answers))
    }

    /// A script that posts `body` (Lua) to `url` and writes what came back into the title.
    func posting(_ url: String, body: String = #""{}""#, options: String = "nil") -> String {
        #"function didReceive(r, c) local s, b = http.post("\#(url)", \#(body), \#(options)) c.title = tostring(s) .. "|" .. tostring(b) end"#
    }

    @Test func aPostToAnAllowedHostGetsItsAnswerAndIsRecorded() async throws {
        let result = try await deliver(posting(Self.receipt, body: #"json.encode({id = "m1"})"#, options: #"{contentType = "application/json; charset=utf-8"}"#))
        #expect(result.content.title == #"202|{"ok":true}"#)
        #expect(result.posts == [PostRecord(url: Self.receipt, body: #"{"id":"m1"}"#, contentType: "application/json; charset=utf-8")])
        #expect(result.jsonValue.objectValue?["posts"] == .array([.object([
            "method": .string("POST"), "url": .string(Self.receipt), "contentType": .string("application/json; charset=utf-8"),
            "body": .object(["id": .string("m1")]),
        ])]))
        let upper = try await deliver(posting("HTTPS://API.EXAMPLE.COM/receipt"), answers: ["HTTPS://API.EXAMPLE.COM/receipt": PostAnswer(status: 200)])
        #expect(upper.content.title == "200|")
    }

    @Test(arguments: [
        ("http://api.example.com/receipt", "not allowed: only https URLs can be posted to, not http"),
        ("file:///etc/passwd", "not allowed: only https URLs can be posted to, not file"),
        ("//api.example.com/receipt", "not allowed: '//api.example.com/receipt' is not an absolute URL"),
        ("receipt", "not allowed: 'receipt' is not an absolute URL"),
        ("https://user:pw@api.example.com/receipt", "not allowed: 'https://user:pw@api.example.com/receipt' has no host"),
        ("https://other.example.com/receipt", "not allowed: the host does not allow posts to other.example.com (--allow-post other.example.com)"),
        ("https://api.example.com.evil.net/receipt", "not allowed: the host does not allow posts to api.example.com.evil.net"),
    ])
    func urlsTheHostDoesNotAllowAreRefusedAndNotRecorded(url: String, message: String) async throws {
        let result = try await deliver(posting(url))
        #expect(result.content.title.hasPrefix("nil|" + message), "\(result.content.title)")
        #expect(result.posts.isEmpty)
    }

    @Test func noHostIsAllowedByDefault() async throws {
        let result = try await deliver(posting(Self.receipt), allow: [])
        #expect(result.content.title.hasPrefix("nil|not allowed: the host does not allow posts to api.example.com"))
    }

    @Test func redirectsAreNotFollowed() async throws {
        let result = try await deliver(posting(Self.receipt), answers: [Self.receipt: PostAnswer(status: 302)])
        #expect(result.content.title == "nil|not allowed: the server redirected (302); posts follow no redirects")
    }

    @Test func bodiesAndResponsesAreAtMost64KB() async throws {
        let fits = try await deliver(posting(Self.receipt, body: #"string.rep("x", 65536)"#))
        #expect(fits.content.title.hasPrefix("202|"))
        let body = try await deliver(posting(Self.receipt, body: #"string.rep("x", 65537)"#))
        #expect(body.content.title == "nil|too large: the body is 65537 bytes; a post may send at most 65536")
        #expect(body.posts.isEmpty)
        let response = try await deliver(posting(Self.receipt), answers: [Self.receipt: PostAnswer(body: String(repeating: "y", count: 65537))])
        #expect(response.content.title == "nil|too large: the response is more than 65536 bytes")
    }

    @Test func aPostEndsAtTheDeadlineAndTheScriptIsStopped() async throws {
        let limits = ScriptLimits(cpuTime: .milliseconds(200), memoryBytes: 8 << 20, time: .milliseconds(300))
        let start = ContinuousClock.now
        let result = try await deliver(
            posting(Self.receipt), answers: [Self.receipt: PostAnswer(delayMs: 5000)], limits: limits)
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .time)
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func itsOwnTimeoutGivesNilAndTheScriptGoesOn() async throws {
        let result = try await deliver(posting(Self.receipt, options: "{timeout = 0.05}"), answers: [Self.receipt: PostAnswer(delayMs: 1000)])
        #expect(result.outcome == .completed)
        #expect(result.content.title == "nil|timeout: no answer before the deadline")
    }

    @Test func bestAttemptCannotPost() async throws {
        let source = """
            function didReceive(r, c) error("boom") end
            function bestAttempt(c, reason) local s, e = http.post("\(Self.receipt)", "{}") c.title = tostring(s) .. "|" .. tostring(e) end
            """
        let result = try await deliver(source)
        #expect(result.content.title == "nil|deadline: no post may start while bestAttempt runs")
        #expect(result.posts.isEmpty)
    }

    @Test func anUnansweredURLOfflineFailsWithNetwork() async throws {
        let result = try await deliver(posting(Self.receipt), answers: [:])
        #expect(result.content.title == "nil|network: no answer for \(Self.receipt) (offline)")
    }

    @Test func wrongArgumentsRaise() async throws {
        let table = try await deliver(#"function didReceive(r, c) http.post("\#(Self.receipt)", {a = 1}) end"#)
        #expect(table.reason?.message == "rules.lua:1: bad argument #2 to 'post' (string expected, got table); encode a table with json.encode")
        let option = try await deliver(#"function didReceive(r, c) http.post("\#(Self.receipt)", "", {retries = 3}) end"#)
        #expect(option.reason?.message == "rules.lua:1: bad argument #3 to 'post' (unknown option 'retries'; it takes method, contentType, headers, timeout)")
        let method = try await deliver(#"function didReceive(r, c) http.post("\#(Self.receipt)", "", {method = "GET"}) end"#)
        #expect(method.reason?.message == #"rules.lua:1: bad argument #3 to 'post' (method must be "POST" or "PUT")"#)
        let host = try await deliver(#"function didReceive(r, c) http.post("\#(Self.receipt)", "", {headers = {Host = "evil.net"}}) end"#)
        #expect(host.reason?.message == "rules.lua:1: bad argument #3 to 'post' (the Host header is set by the host)")
        let split = try await deliver(#"function didReceive(r, c) http.post("\#(Self.receipt)", "", {headers = {["X-A"] = "1\r\nHost: evil"}}) end"#)
        #expect(split.reason?.message == "rules.lua:1: bad argument #3 to 'post' (the value of header X-A must be one line)")
        let name = try await deliver(#"function didReceive(r, c) http.post("\#(Self.receipt)", "", {headers = {["X A"] = "1"}}) end"#)
        #expect(name.reason?.message == "rules.lua:1: bad argument #3 to 'post' (header name 'X A' is not a token; use letters, digits and '-')")
    }

    @Test func aPutWithHeadersIsRecordedAsSuch() async throws {
        let result = try await deliver(posting(Self.receipt, options: #"{method = "PUT", headers = {Authorization = "Basic a2V5Og=="}}"#))
        #expect(result.content.title == #"202|{"ok":true}"#)
        #expect(result.jsonValue.objectValue?["posts"] == .array([.object([
            "method": .string("PUT"), "url": .string(Self.receipt), "contentType": .string("application/json"),
            "headers": .object(["Authorization": .string("Basic a2V5Og==")]), "body": .object([:]),
        ])]))
    }
}
