import Foundation
import TestSupport
import MediaDownloader
import Testing

/// A fresh attachment directory for one test. `expectOnly` asserts that nothing but the given
/// downloads is in it — no partial or stray files; `remove` deletes it.
struct AttachmentDirectory {
    let url: URL

    init() throws {
        url = try TemporaryFolder.make("MediaDownloaderTests")
    }

    var fileNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    func expectOnly(_ files: [DownloadedFile], sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = files.map { URL(fileURLWithPath: $0.path).lastPathComponent }.sorted()
        #expect(fileNames == expected, "stray files in the attachment directory", sourceLocation: sourceLocation)
    }

    func expectEmpty(sourceLocation: SourceLocation = #_sourceLocation) {
        expectOnly([], sourceLocation: sourceLocation)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
