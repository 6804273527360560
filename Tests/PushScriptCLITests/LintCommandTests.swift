import Foundation
import Testing

/// The built `pushscript` binary, run as a person runs it.
enum ToolingBinary {
    /// The binary beside the test runner.
    static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pushscript")
    }

    /// What a run printed and how it ended.
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// Runs `pushscript` with `arguments` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: URL) throws -> Run {
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-cli-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outputs) }
        let outFile = outputs.appendingPathComponent("stdout")
        let errFile = outputs.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outFile)
        process.standardError = try FileHandle(forWritingTo: errFile)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outFile, encoding: .utf8), stderr: try String(contentsOf: errFile, encoding: .utf8))
    }

    /// A fresh folder holding `files` (relative path → text).
    static func folder(_ files: [String: String]) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-cli-\(UUID().uuidString)", isDirectory: true)
        for (path, text) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return root
    }
}


@Suite("pushscript lint")
struct LintCommandTests {
    static let good = #"{"aps": {"alert": "Hi", "mutable-content": 1}}"#

    @Test func cleanPayloadsPrintNothingAndExitZero() throws {
        let dir = try ToolingBinary.folder([
            "good.json": Self.good,
            "sim.apns": #"{"Simulator Target Bundle": "com.example.news", "aps": {"alert": "Hi", "mutable-content": 1}}"#,
        ])
        let run = try ToolingBinary.run(["lint", "good.json", "sim.apns"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.isEmpty)
    }

    @Test func eachRuleHasItsLine() throws {
        let big = String(repeating: "x", count: 4100)
        let dir = try ToolingBinary.folder([
            "nomutable.json": #"{"aps": {"alert": "Hi"}}"#,
            "badge.json": #"{"aps": {"alert": "Hi", "badge": "1", "mutable-content": 1}}"#,
            "noaps.json": #"{"alert": "Hi"}"#,
            "array.json": #"[1, 2]"#,
            "large.json": #"{"aps": {"alert": "\#(big)", "mutable-content": 1}}"#,
            "http.json": #"{"aps": {"alert": "Hi", "mutable-content": 1}, "media": {"pics": ["https://ok.example/a.jpg", "http://plain.example/b.jpg"]}}"#,
            "broken.json": #"{"aps": "#,
        ])
        let run = try ToolingBinary.run(
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

    @Test func warningsAloneExitZero() throws {
        let dir = try ToolingBinary.folder(["w.json": #"{"aps": {"alert": "Hi", "mutable-content": 1}, "u": "http://x.example/a"}"#])
        let run = try ToolingBinary.run(["lint", "w.json"], in: dir)
        #expect(run.status == 0)
        #expect(run.lines == ["w.json: warning: u is a plain http URL; iOS refuses it without an App Transport Security exception"])
    }

    @Test func apnsFilesAreKnownByExtension() throws {
        // The target bundle key is not part of the payload: it neither counts nor is refused.
        let dir = try ToolingBinary.folder([
            "push.apns": #"{"Simulator Target Bundle": "com.example.news", "aps": {"alert": "Hi", "mutable-content": 1}}"#,
            "push.json": #"{"Simulator Target Bundle": 5, "aps": {"alert": "Hi", "mutable-content": 1}}"#,
            "bad.apns": #"{"Simulator Target Bundle": 5, "aps": {"alert": "Hi", "mutable-content": 1}}"#,
        ])
        let run = try ToolingBinary.run(["lint", "push.apns", "push.json", "bad.apns"], in: dir)
        #expect(run.lines.filter { $0.hasPrefix("push.") }.isEmpty)
        #expect(run.lines.contains { $0.hasPrefix("bad.apns: error: Simulator Target Bundle") })
        #expect(run.status == 1)
    }

    @Test func unreadableFileExitsTwoWithOneLine() throws {
        let dir = try ToolingBinary.folder(["good.json": Self.good, "nomutable.json": #"{"aps": {"alert": "Hi"}}"#])
        let run = try ToolingBinary.run(["lint", "missing.json", "nomutable.json"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr == "pushscript lint: cannot read missing.json; check the path\n")
        #expect(run.lines.count == 1)
    }

    @Test func noArgumentsIsAUsageError() throws {
        let run = try ToolingBinary.run(["lint"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("pushscript lint: give at least one payload file"))
        let help = try ToolingBinary.run(["lint", "--help"], in: FileManager.default.temporaryDirectory)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: pushscript lint PAYLOAD..."))
    }
}
