import Foundation
import NotificationModel

extension MediaDownloader {
    /// Turns a complete body into the result: types it from its first bytes, checks the kind,
    /// collects the warnings, and renames the partial file to its type's extension. Removes the
    /// file instead when the kind is refused or the task was cancelled meanwhile.
    func finish(file: URL, head: ResponseHead, size: Int, prefix: [UInt8], requested: String, finalURL: URL,
                name: AttachmentName, directory: URL, options: DownloadOptions) throws(DownloadError) -> DownloadedFile {
        func discard(_ error: DownloadError) -> DownloadError {
            try? FileManager.default.removeItem(at: file)
            return error
        }
        if Task.isCancelled { throw discard(Self.cancelled) }
        if let error = TransferSink.kindError(prefix, options.kinds) { throw discard(error) }
        let type = MediaType.sniff(prefix)
        let requestedURL = URL(string: requested) ?? finalURL
        let warnings = MediaType.mismatchWarnings(sniffed: type, contentType: head.contentType, url: requestedURL)
        let destination = directory.appendingPathComponent(name.final(for: type))
        do {
            try FileManager.default.moveItem(at: file, to: destination)
        } catch {
            throw discard(DownloadError(.network, "cannot name the downloaded file: \(error)"))
        }
        return DownloadedFile(path: destination.path, url: requested, finalURL: finalURL.absoluteString,
                              mediaType: type, size: size, warnings: warnings)
    }
}
