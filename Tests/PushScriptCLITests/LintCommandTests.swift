import Foundation
import TestSupport
import Testing

@Suite("pushscript lint")
struct LintCommandTests {
    static let good = #"{"aps": {"alert": "Hi", "mutable-content": 1}}"#

    @Test func cleanPayloadsPrintNothingAndExitZero() async throws {
        let dir = try folder([
            "good.json": Self.good,
            "sim.apns": #"{"Simulator Target Bundle": "com.example.news", "aps": {"alert": "Hi", "mutable-content": 1}}"#,
        ])
        let run = try await CLI.run(["lint", "good.json", "sim.apns"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr == "2 files, no findings\n")
    }

    @Test func eachRuleHasItsLine() async throws {
        let big = String(repeating: "x", count: 4100)
        let dir = try folder([
            "nomutable.json": #"{"aps": {"alert": "Hi"}}"#,
            "badge.json": #"{"aps": {"alert": "Hi", "badge": "1", "mutable-content": 1}}"#,
            "noaps.json": #"{"alert": "Hi"}"#,
            "array.json": #"[1, 2]"#,
            "large.json": #"{"aps": {"alert": "\#(big)", "mutable-content": 1}}"#,
            "http.json": #"{"aps": {"alert": "Hi", "mutable-content": 1}, "media": {"pics": ["https://ok.example/a.jpg", "http://plain.example/b.jpg"]}}"#,
            "broken.json": #"{"aps": "#,
        ])
        let run = try await CLI.run(
            ["lint", "nomutable.json", "badge.json", "noaps.json", "array.json", "large.json", "http.json", "broken.json"], in: dir)
        #expect(run.status == 1)
        let lines = run.lines
        #expect(lines.contains("nomutable.json: error: aps.mutable-content is not 1; iOS runs a notification service extension only for \"mutable-content\": 1"))
        #expect(lines.contains { $0.hasPrefix("badge.json: error: ") && $0.contains("aps.badge") })
        #expect(lines.contains { $0.hasPrefix("noaps.json: error: ") && $0.contains("aps") })
        #expect(lines.contains { $0.hasPrefix("array.json: error: ") })
        #expect(lines.contains { $0.hasPrefix("large.json: error: payload too large") })
        #expect(lines.contains("http.json: warning: media.pics[1] is a plain http URL; iOS refuses it without an App Transport Security exception"))
        #expect(!lines.contains { $0.hasPrefix("http.json: error") })
        #expect(lines.contains { $0.hasPrefix("broken.json: error: ") })
        #expect(lines.allSatisfy { $0.contains(": error: ") || $0.contains(": warning: ") })
    }

    @Test func warningsAloneExitZero() async throws {
        let dir = try folder(["w.json": #"{"aps": {"alert": "Hi", "mutable-content": 1}, "u": "http://x.example/a"}"#])
        let run = try await CLI.run(["lint", "w.json"], in: dir)
        #expect(run.status == 0)
        #expect(run.lines == ["w.json: warning: u is a plain http URL; iOS refuses it without an App Transport Security exception"])
    }

    @Test func apnsFilesAreKnownByExtension() async throws {
        // The target bundle key is not part of the payload: it neither counts nor is refused.
        let dir = try folder([
            "push.apns": #"{"Simulator Target Bundle": "com.example.news", "aps": {"alert": "Hi", "mutable-content": 1}}"#,
            "push.json": #"{"Simulator Target Bundle": 5, "aps": {"alert": "Hi", "mutable-content": 1}}"#,
            "bad.apns": #"{"Simulator Target Bundle": 5, "aps": {"alert": "Hi", "mutable-content": 1}}"#,
        ])
        let run = try await CLI.run(["lint", "push.apns", "push.json", "bad.apns"], in: dir)
        #expect(run.lines.filter { $0.hasPrefix("push.") }.isEmpty)
        #expect(run.lines.contains { $0.hasPrefix("bad.apns: error: Simulator Target Bundle") })
        #expect(run.status == 1)
    }

    @Test func unreadableFileExitsTwoWithOneLine() async throws {
        let dir = try folder(["good.json": Self.good, "nomutable.json": #"{"aps": {"alert": "Hi"}}"#])
        let run = try await CLI.run(["lint", "missing.json", "nomutable.json"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr == "pushscript lint: cannot read missing.json; check the path\n2 files, 1 unreadable, 1 error\n")
        #expect(run.lines.count == 1)
    }

    @Test func noArgumentsIsAUsageError() async throws {
        let run = try await CLI.run(["lint"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("pushscript lint: give at least one payload file"))
        let help = try await CLI.run(["lint", "--help"], in: FileManager.default.temporaryDirectory)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: pushscript lint PAYLOAD..."))
    }
}
