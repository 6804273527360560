import Foundation
import TestSupport
import Testing

/// `docs/shipping-scripts.md`: its worked example runs as written, command by command, in a
/// copy of `docs/shipping-example`, and prints what the page shows.
@Suite(.serialized) struct ShippingDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One command of the page's transcript and the output lines it shows.
    struct Step {
        let command: String
        var shown: [String] = []
    }

    /// The `$ ` commands of the `sh` blocks of `text`, each with the lines shown after it.
    static func transcript(_ text: String) -> [Step] {
        var steps: [Step] = []
        var inBlock = false
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                inBlock = !inBlock && line == "```sh"
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                steps.append(Step(command: String(line.dropFirst(2))))
            } else if !steps.isEmpty {
                steps[steps.count - 1].shown.append(line)
            }
        }
        return steps
    }

    /// Whether `shown` (lines where `…` stands for anything; a line of `…` alone for any
    /// lines) appears in `actual` in order.
    static func matches(_ shown: [String], _ actual: [String]) -> Bool {
        var index = 0
        for expected in shown where expected != "…" {
            let pieces = expected.components(separatedBy: "…")
            while index < actual.count, !fits(pieces, actual[index]) { index += 1 }
            guard index < actual.count else { return false }
            index += 1
        }
        return true
    }

    private static func fits(_ pieces: [String], _ line: String) -> Bool {
        guard line.hasPrefix(pieces[0]) else { return false }
        var rest = line.dropFirst(pieces[0].count)
        for piece in pieces.dropFirst() where !piece.isEmpty {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return pieces.count > 1 || rest.isEmpty
    }

    @Test func theTranscriptReaderReadsWhatThePageShows() {
        #expect(Self.matches(["a…c", "…", "x"], ["abc", "q", "x"]))
        #expect(!Self.matches(["a…c"], ["ab"]))
        #expect(!Self.matches(["abc"], ["abcd"]))
        #expect(Self.matches(["key …"], ["key 12ab: wrote"]))
        let steps = Self.transcript("text\n```sh\n$ one\nout\n$ two\n```\n```\n$ not\n```\n")
        #expect(steps.map(\.command) == ["one", "two"] && steps[0].shown == ["out"])
    }

    @Test func theWorkedExampleRunsAsWritten() async throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/shipping-scripts.md"), encoding: .utf8)
        let section = try #require(page.components(separatedBy: "## A worked example").dropFirst().first?.components(separatedBy: "\n## ").first)
        let steps = Self.transcript(section)
        #expect(steps.count >= 20, "\(steps.count) commands")
        let folder = try TemporaryFolder("shipping-example")
        let copy = folder.url.appendingPathComponent("example")
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("docs/shipping-example"), to: copy)
        let path = CLI.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for step in steps {
            let out = try await CLI.run(["-c", step.command], in: copy, environment: ["PATH": path], timeout: .seconds(60), executable: URL(fileURLWithPath: "/bin/sh"))
            let lines = (out.stdout + out.stderr).components(separatedBy: "\n")
            let expectedStatus: Int32 = step.shown.first?.hasPrefix("refused:") == true ? 1 : (step.shown.contains { $0.contains(#""outcome": "fallback""#) } ? 3 : 0)
            #expect(out.status == expectedStatus, "\(step.command)\n\(out)")
            #expect(Self.matches(step.shown, lines), "\(step.command) does not print what the page shows:\n\(step.shown.joined(separator: "\n"))\n\(out)")
        }
        // And the device ends as the page says: version 1 in service, 3 rolled back, 2 revoked.
        let status = try await CLI.run(["bundle", "status", "--state", "device"], in: copy)
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let app = (json?["apps"] as? [String: Any])?["com.example.news"] as? [String: Any]
        #expect((app?["active"] as? [String: Any])?["version"] as? Int == 1)
        #expect(((app?["rolledBack"] as? [[String: Any]])?.first)?["version"] as? Int == 3)
        #expect(((app?["revoked"] as? [[String: Any]])?.first)?["version"] as? Int == 2)
    }

    @Test func thePageShowsTheExampleFilesAsTheyAre() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/shipping-scripts.md"), encoding: .utf8)
        let named = page.components(separatedBy: "`docs/shipping-example/").dropFirst().compactMap { $0.components(separatedBy: "`").first }
            .filter { $0.hasSuffix(".lua") }
        #expect(named.count >= 3)
        for file in named {
            let text = try String(contentsOf: Self.root.appendingPathComponent("docs/shipping-example/\(file)"), encoding: .utf8)
            #expect(page.contains(text.trimmingCharacters(in: .newlines)), "docs/shipping-scripts.md does not show docs/shipping-example/\(file) as it is")
        }
    }
}
