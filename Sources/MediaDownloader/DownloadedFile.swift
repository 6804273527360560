import Foundation
import NotificationModel

/// A finished download: a file in the attachment directory, named with its type's extension.
public struct DownloadedFile: Sendable, Hashable {
    /// The file's path.
    public let path: String
    /// The URL as it was asked for (before redirects).
    public let url: String
    /// The URL the body came from, after redirects.
    public let finalURL: String
    /// The type the bytes show, or nil when they show no supported type.
    public let mediaType: MediaType?
    /// The file's size in bytes.
    public let size: Int
    /// Disagreements between the bytes and the server's `Content-Type` or the URL's extension,
    /// for the host to log; never used to decide the type.
    public let warnings: [String]

    /// Makes a record of a downloaded file.
    public init(path: String, url: String, finalURL: String, mediaType: MediaType?, size: Int, warnings: [String]) {
        self.path = path
        self.url = url
        self.finalURL = finalURL
        self.mediaType = mediaType
        self.size = size
        self.warnings = warnings
    }

    /// The file's `file://` URL.
    public var fileURL: URL { URL(fileURLWithPath: path) }
    /// The UTI of the type the bytes show (`public.jpeg`), or nil.
    public var type: String? { mediaType?.uti }
    /// The MIME type of the type the bytes show (not the server's `Content-Type`);
    /// `application/octet-stream` when they show none.
    public var mime: String { mediaType?.mime ?? MediaType.unknownMIME }
}
