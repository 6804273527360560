import Foundation
import TestSupport
import Testing

/// `pushscript test` through the binary: the lines it prints, the closing line last, and its
/// exit status.
@Suite(.serialized) struct TestCommandTests {
    private static let script = #"function didReceive(r, c) c.title = "Hi" end"#

    private static func fixture(_ name: String, title: String) -> String {
        #"{"name": "\#(name)", "script": "rules.lua", "payload": {"aps": {"alert": "x", "mutable-content": 1}}, "expect": {"content": {"title": "\#(title)"}}}"#
    }

    @Test func passFailAndTheClosingLineLastWithExitStatusOne() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("rules.lua", Self.script)
        try scratch.write("1.fixture.json", Self.fixture("greets", title: "Hi"))
        try scratch.write("2.fixture.json", Self.fixture("expects another title", title: "Hello"))
        let out = try await CLI.run(["test", scratch.url.path])
        #expect(out.status == 1, "\(out)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "PASS greets")
        #expect(lines.contains { $0.hasPrefix("FAIL expects another title") })
        #expect(lines.contains(#"  content.title: expected "Hello", actual "Hi""#))
        #expect(lines.last == "1 passed, 1 failed")
        #expect(out.stderr == "")

        let passing = try await CLI.run(["test", scratch.path("1.fixture.json")])
        #expect(passing.status == 0)
        #expect(passing.stdout == "PASS greets\n1 passed, 0 failed\n")
    }

    @Test func aMalformedFixturesProblemIsPrintedOnceAndItExitsTwo() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("rules.lua", Self.script)
        try scratch.write("1.fixture.json", Self.fixture("greets", title: "Hi"))
        let broken = try scratch.write("2.fixture.json", #"{"script": "rules.lua", "payload": {"aps": {}}}"#)
        try scratch.write("3.fixture.json", Self.fixture("expects another title", title: "Hello"))
        let out = try await CLI.run(["test", scratch.url.path])
        #expect(out.status == 2, "\(out)")
        let problem = "\(broken): 'expect' is missing: say what the result must contain"
        #expect(out.stdout.split(separator: "\n").map(String.init).contains("ERROR \(problem)"))
        #expect(out.stdout.hasSuffix("\n1 passed, 2 failed\n"))
        #expect(out.errorLines == ["pushscript test: 1 fixture file is malformed (\(broken)); the ERROR lines say what to fix"])
        #expect((out.stdout + out.stderr).components(separatedBy: "'expect' is missing").count == 2)
    }

    @Test func missingPathsAndNoPathsAreUsageErrors() async throws {
        let scratch = try TemporaryFolder()
        let nowhere = scratch.path("nowhere")
        let missing = try await CLI.run(["test", nowhere])
        #expect(missing.status == 2)
        #expect(missing.stdout == "")
        #expect(missing.errorLines == ["pushscript test: \(nowhere): no such file or folder; check the path"])
        let none = try await CLI.run(["test"])
        #expect(none.status == 2)
        #expect(none.errorLines == ["pushscript test: give at least one fixture file or folder; run 'pushscript test --help'"])
    }
}
