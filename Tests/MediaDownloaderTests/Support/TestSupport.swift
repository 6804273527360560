import Foundation
import MediaDownloader
import Testing

/// One transport to the platform's network for the whole suite, as a host keeps one.
let sharedTransport = PlatformNetwork.make()

/// A downloader over the real network stack that may use plain http to the test server.
func localDownloader(maxRedirects: Int = DownloadPolicy.defaultMaxRedirects) -> MediaDownloader {
    MediaDownloader(transport: sharedTransport,
                    policy: DownloadPolicy(allowingHTTPFor: ["127.0.0.1"], maxRedirects: maxRedirects))
}

extension MediaDownloader {
    /// `download` as a `Result`, for tests that look at the error.
    func result(_ url: String, into directory: AttachmentDirectory, options: DownloadOptions = DownloadOptions(),
                deadline: ContinuousClock.Instant? = nil) async -> Result<DownloadedFile, DownloadError> {
        do {
            return .success(try await download(url, into: directory.url, options: options, deadline: deadline))
        } catch {
            return .failure(error)
        }
    }
}

extension Result where Failure == DownloadError {
    /// The error's message, or nil on success.
    var errorMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }

    /// The file, or nil on failure.
    var file: Success? { try? get() }
}

/// The seconds since `start`.
func secondsSince(_ start: ContinuousClock.Instant) -> Double {
    let (seconds, attoseconds) = (ContinuousClock.now - start).components
    return Double(seconds) + Double(attoseconds) / 1e18
}

/// The bytes of the file at `path`.
func contents(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
}
