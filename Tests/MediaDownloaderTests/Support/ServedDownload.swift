import Foundation
import MediaDownloader
import Testing

/// One download of `path` from a fresh test server that answers it with `response`, into a
/// fresh attachment directory, and what it left: the result, the seconds it took, the paths
/// the server was asked for, and the files left in the directory.
struct ServedDownload {
    let result: Result<DownloadedFile, DownloadError>
    let seconds: Double
    let requestedPaths: [String]
    let filesLeft: [String]

    /// Runs the download; `deadline` is counted from its start (negative: already past).
    static func run(
        _ path: String, _ response: TestResponse, downloader: MediaDownloader = localDownloader(),
        options: DownloadOptions = DownloadOptions(), deadline: Duration? = nil
    ) async throws -> ServedDownload {
        let server = try TestServer([path: response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let start = ContinuousClock.now
        let result = await downloader.result(server.url(path), into: directory, options: options, deadline: deadline.map { start + $0 })
        return ServedDownload(
            result: result, seconds: secondsSince(start), requestedPaths: server.requestedPaths, filesLeft: directory.fileNames)
    }

    /// Expects a failure that left no file, partial or whole, behind.
    func expectFailedWithoutFiles(_ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.errorMessage == message, "\(result)", sourceLocation: sourceLocation)
        #expect(filesLeft == [], "stray files in the attachment directory", sourceLocation: sourceLocation)
    }

    /// Expects a failure whose message starts with `prefix` that left no file behind.
    func expectFailedWithoutFiles(startingWith prefix: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.errorMessage?.hasPrefix(prefix) == true, "\(result)", sourceLocation: sourceLocation)
        #expect(filesLeft == [], "stray files in the attachment directory", sourceLocation: sourceLocation)
    }
}
