import NotificationModel
/// Options of one download.
public struct DownloadOptions: Sendable, Hashable {
    /// The longest the download may take, redirects included; nil for no limit of its own.
    /// It never runs past the deadline given to the download.
    public var timeout: Duration?
    /// The largest body accepted, in bytes; checked against `Content-Length` before any byte is
    /// written, and again while the body streams. Default: the largest attachment maximum,
    /// 50,000,000.
    public var maxBytes: Int
    /// The kinds accepted, or nil for any; bytes of another kind, or of no supported type, fail
    /// the download with `unsupported type`.
    public var kinds: Set<AttachmentKind>?

    /// Options with the given timeout, size limit and kinds.
    public init(timeout: Duration? = nil,
                maxBytes: Int = AttachmentKind.largestMaximumSize,
                kinds: Set<AttachmentKind>? = nil) {
        self.timeout = timeout
        self.maxBytes = maxBytes
        self.kinds = kinds
    }
}
