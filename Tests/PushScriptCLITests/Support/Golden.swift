import Foundation
import TestSupport
import Testing

/// Golden files of CLI output, beside the tests in `Golden/`. They change on purpose only:
/// run the tests with `PUSHSCRIPT_RECORD_GOLDEN=1` to write what the binary prints now — each
/// test that records fails, saying so, so that a recording run never passes as a check — then
/// read the diff before committing it and run the tests again.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden", isDirectory: true)

    static var recording: Bool { ProcessInfo.processInfo.environment["PUSHSCRIPT_RECORD_GOLDEN"] == "1" }

    /// Checks `text` against the golden file `name` (a path under `Golden/`), or records it
    /// and fails.
    static func check(_ text: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            Issue.record("recorded Golden/\(name); read its diff, then run the tests without PUSHSCRIPT_RECORD_GOLDEN", sourceLocation: sourceLocation)
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record("no golden file \(name); record it with PUSHSCRIPT_RECORD_GOLDEN=1 swift test --filter PushScriptCLITests", sourceLocation: sourceLocation)
            return
        }
        let golden = String(decoding: data, as: UTF8.self)
        #expect(text == golden, "differs from Golden/\(name); re-record on purpose with PUSHSCRIPT_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
    }

    /// `output` with what varies from run to run made fixed: the temporary folder's path
    /// (`<tmp>`), UUIDs (`<uuid>`), an attachment file's random suffix (`pic-<id>.jpg`), and
    /// the measured figures of `stats` (`<n>`).
    static func normalised(_ output: CLIOutput) -> String {
        var text = "--- stdout\n\(output.stdout)--- stderr\n\(output.stderr)--- exit \(output.status)\n"
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL.path
        text = text.replacingOccurrences(of: temporary, with: "<tmp>")
        text = text.replacing(/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/, with: "<uuid>")
        text = text.replacing(/-[0-9a-f]{12}\.([a-z0-9]+)"/) { match in "-<id>.\(match.1)\"" }
        text = text.replacing(/"(cpuMs|wallMs|deliveredMs|memoryPeakBytes)": ?[0-9.e+-]+/) { match in "\"\(match.1)\": <n>" }
        return text
    }
}
