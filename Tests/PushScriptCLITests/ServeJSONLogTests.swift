import Foundation
import TestSupport
import Testing

/// `serve --log-format json` keeps standard error one JSON object per line whatever it reports,
/// and logs each answer once.
@Suite(.serialized) struct ServeJSONLogTests {
    /// A request for app `com.example.news`.
    static func line(_ id: Int) -> String { ServeTests.request(id) }

    @Test func aRollbackDuringServeIsAJSONEvent() async throws {
        let ws = try await BundleCommandTests.Workspace(versions: 1)
        #expect(try await ws.install(1).status == 0)
        // Version 2 raises on every delivery: its first failure in a probation of 3 rolls it back.
        try ws.folder.write("v2/com.example.news.lua", "function didReceive(request, content) error(\"v2 is broken\") end\n")
        let built = try await CLI.run(["bundle", "build", "v2", "--app", "com.example.news", "--version", "2", "--key", "team.key", "--probation", "3", "-o", "v2.psbundle"], in: ws.url)
        #expect(built.status == 0, "\(built)")
        #expect(try await ws.install(2).status == 0)
        let input = (1...3).map(Self.line).joined(separator: "\n") + "\n"
        let out = try await CLI.run(
            ["serve", "--scripts", "app", "--state", "state", "--trust", "team.key.pub", "--log-format", "json", "--ordered"], stdin: input, in: ws.url)
        #expect(out.status == 0, "\(out)")
        let versions = try out.stdout.split(separator: "\n").map { try parseJSON(String($0)) }.map { ($0["script"] as? [String: Any])?["version"] as? Int }
        #expect(versions == [2, 1, 1])
        var events: [[String: Any]] = []
        for line in out.errorLines {
            let event = try #require(try? parseJSON(line), "not a JSON object on standard error: \(line)")
            events.append(event)
        }
        let rollback = try #require(events.first { $0["event"] as? String == "bundle-rolled-back" }, "\(out.errorLines)")
        #expect(rollback["app"] as? String == "com.example.news")
        #expect(rollback["version"] as? Int == 2)
        #expect((rollback["reason"] as? String)?.contains("v2 is broken") == true)
    }

    @Test func workerProcessesLogEachAnswerOnce() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", ServeTests.title("t"))
        let input = (1...4).map(Self.line).joined(separator: "\n") + "\n"
        let out = try await CLI.run(
            ["serve", "--scripts", scratch.path("scripts"), "--isolation", "process", "--log-format", "json"], stdin: input)
        #expect(out.status == 0, "\(out)")
        let events = try out.errorLines.map(parseJSON)
        let answered = events.filter { $0["event"] as? String == "answer" }.compactMap { $0["id"] as? Int }.sorted()
        #expect(answered == [1, 2, 3, 4], "\(out.errorLines)")
    }

    @Test func aLineAnsweredWithAnErrorIsAnEvent() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", ServeTests.title("t"))
        let input = Self.line(1) + "\n" + #"{"id": 2, "payload": 5}"# + "\nnot json\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--log-format", "json"], stdin: input)
        #expect(out.status == 0, "\(out)")
        let invalid = try out.errorLines.map(parseJSON).filter { $0["event"] as? String == "invalid-line" }
        #expect(invalid.count == 2, "\(out.errorLines)")
        #expect(invalid.contains { $0["id"] as? Int == 2 && ($0["error"] as? String)?.isEmpty == false }, "\(invalid)")
        #expect(invalid.contains { $0["id"] is NSNull }, "\(invalid)")
    }
}
