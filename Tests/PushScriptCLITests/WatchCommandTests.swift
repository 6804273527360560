import Foundation
import TestSupport
import Synchronization
import Testing

/// `pushscript watch` running as a child process, its standard output read as it comes.
final class WatchProcess {
    private let process: Process
    private let output = LineCollector()

    init(_ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["watch"] + arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        self.process = process
        try process.run()
        output.read(pipe.fileHandleForReading)
    }

    /// The lines printed so far.
    var lines: [String] { output.all.filter { !$0.isEmpty } }

    /// Waits until `count` summary lines were printed, or `timeout` passed; returns the lines.
    func waitForSummaries(_ count: Int, timeout: Duration = .seconds(30)) async -> [String] {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            let lines = self.lines
            if lines.filter({ $0.contains(" passed, ") && $0.hasSuffix(" failed") }).count >= count { return lines }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return lines
    }

    /// Ends it as Ctrl-C does; returns its termination status.
    func interrupt() -> Int32 {
        process.interrupt()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite("pushscript watch")
struct WatchCommandTests {
    static func script(_ title: String) -> String { "function didReceive(request, content)\n  content.title = \"\(title)\"\nend\n" }

    static let fixture = """
        {"name": "greets", "script": "../rules/app.lua",
         "payload": {"aps": {"alert": "x", "mutable-content": 1}},
         "expect": {"outcome": "completed", "content": {"title": "Hello"}}}
        """

    @Test func picksUpAnEditAndARenameSave() async throws {
        let dir = try folder(["rules/app.lua": Self.script("Hello"), "tests/a.fixture.json": Self.fixture])
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try WatchProcess(["tests"], in: dir)

        var lines = await watch.waitForSummaries(1)
        #expect(lines == ["PASS greets", "1 passed, 0 failed"])

        // An edit in place.
        try Data(Self.script("Bye").utf8).write(to: dir.appendingPathComponent("rules/app.lua"))
        lines = await watch.waitForSummaries(2)
        #expect(Array(lines.dropFirst(2)) == [
            "changed: rules/app.lua",
            "FAIL greets",
            "  in \(dir.appendingPathComponent("tests/a.fixture.json").standardizedFileURL.path)",
            "  content.title: expected \"Hello\", actual \"Bye\"",
            "0 passed, 1 failed",
        ])

        // A save that writes a new file and renames it over the script.
        let temporary = dir.appendingPathComponent("rules/.app.lua.tmp")
        try Data(Self.script("Hello").utf8).write(to: temporary)
        #expect(rename(temporary.path, dir.appendingPathComponent("rules/app.lua").path) == 0)
        lines = await watch.waitForSummaries(3)
        #expect(Array(lines.suffix(3)) == ["changed: rules/app.lua", "PASS greets", "1 passed, 0 failed"])

        // And once more after the rename: the new inode is watched through its folder.
        try Data(Self.script("Again").utf8).write(to: dir.appendingPathComponent("rules/app.lua"))
        lines = await watch.waitForSummaries(4)
        #expect(lines.last == "0 passed, 1 failed")

        #expect(watch.interrupt() != 0)
    }

    @Test func keepsGoingWhenTheScriptBreaksAndRunsNewFixtures() async throws {
        let dir = try folder(["rules/app.lua": Self.script("Hello"), "tests/a.fixture.json": Self.fixture])
        defer { try? FileManager.default.removeItem(at: dir) }
        let watch = try WatchProcess(["tests"], in: dir)
        _ = await watch.waitForSummaries(1)

        try Data("function didReceive(r, c) c.title = = 1 end".utf8).write(to: dir.appendingPathComponent("rules/app.lua"))
        var lines = await watch.waitForSummaries(2)
        #expect(lines.last == "0 passed, 1 failed")
        #expect(lines.contains("  outcome: expected \"completed\", actual \"fallback\""))

        try Data(Self.script("Hello").utf8).write(to: dir.appendingPathComponent("rules/app.lua"))
        lines = await watch.waitForSummaries(3)
        #expect(lines.last == "1 passed, 0 failed")

        let second = Self.fixture.replacingOccurrences(of: "greets", with: "second")
        try Data(second.utf8).write(to: dir.appendingPathComponent("tests/b.fixture.json"))
        lines = await watch.waitForSummaries(4)
        #expect(Array(lines.suffix(3)) == ["changed: tests/b.fixture.json", "PASS second", "2 passed, 0 failed"])

        #expect(watch.interrupt() != 0)
    }

    @Test func missingPathIsAUsageError() async throws {
        let run = try await CLI.run(["watch", "nowhere"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("pushscript watch: nowhere: no such file or folder"))
    }
}
