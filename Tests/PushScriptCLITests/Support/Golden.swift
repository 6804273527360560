import Foundation
import Testing

/// Golden files of CLI output, beside the tests in `Golden/`. They change on purpose only:
/// run the tests with `PUSHSCRIPT_RECORD_GOLDEN=1` to write what the binary prints now, then
/// read the diff before committing it.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden", isDirectory: true)

    static var recording: Bool { ProcessInfo.processInfo.environment["PUSHSCRIPT_RECORD_GOLDEN"] == "1" }

    /// Checks `text` against the golden file `name`, or records it.
    static func check(_ text: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record("no golden file \(name); record it with PUSHSCRIPT_RECORD_GOLDEN=1 swift test --filter HelpTests", sourceLocation: sourceLocation)
            return
        }
        let golden = String(decoding: data, as: UTF8.self)
        #expect(text == golden, "differs from Golden/\(name); re-record on purpose with PUSHSCRIPT_RECORD_GOLDEN=1", sourceLocation: sourceLocation)
    }
}
