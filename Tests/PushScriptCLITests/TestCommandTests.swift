import Foundation
import Testing

/// `pushscript test` through the binary: the lines it prints, the closing line last, and its
/// exit status.
@Suite(.serialized) struct TestCommandTests {
    private static let script = #"function didReceive(r, c) c.title = "Hi" end"#

    private static func fixture(_ name: String, title: String) -> String {
        #"{"name": "\#(name)", "script": "rules.lua", "payload": {"aps": {"alert": "x", "mutable-content": 1}}, "expect": {"content": {"title": "\#(title)"}}}"#
    }

    @Test func missingPathsAndNoPathsAreUsageErrors() async throws {
        let scratch = try Scratch()
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
