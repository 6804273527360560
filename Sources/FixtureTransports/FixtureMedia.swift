import Foundation

/// How a fixture answers one URL: a file's bytes (or an empty body), with a status, a
/// `Content-Type` and a delay before the response.
public struct FixtureMedia: Sendable, Hashable {
    /// The file whose bytes are the body, or nil for an empty body.
    public var file: URL?
    /// The HTTP status; default 200.
    public var status: Int
    /// The `Content-Type` sent, or nil for none. It may lie: the type is decided from the bytes.
    public var contentType: String?
    /// How long to wait before the response, in milliseconds; default 0.
    public var delayMs: Int
    /// The body's size when it should be larger than the file: the file's bytes are followed
    /// by zero bytes up to this many, so a small file stands in for a large one (an 11 MB
    /// JPEG for the `too large` path). Nil, or no more than the file's size: the file alone.
    public var sizeBytes: Int?

    /// A fixture answer.
    public init(file: URL? = nil, status: Int = 200, contentType: String? = nil, delayMs: Int = 0, sizeBytes: Int? = nil) {
        self.file = file
        self.status = status
        self.contentType = contentType
        self.delayMs = delayMs
        self.sizeBytes = sizeBytes
    }
}
