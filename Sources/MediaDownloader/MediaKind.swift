/// The broad kind of a media type, as `UNNotificationAttachment` groups the types it accepts.
public enum MediaKind: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Still or animated images: JPEG, PNG, GIF.
    case image
    /// Audio: WAV, AIFF, MP3, MPEG-4 audio.
    case audio
    /// Video: MPEG, MPEG-2 video, MPEG-4, AVI.
    case video

    /// The largest attachment of this kind that iOS accepts, in bytes (MB as 1,000,000 bytes):
    /// 10 MB for images, 5 MB for audio, 50 MB for video.
    public var attachmentMaximumBytes: Int {
        switch self {
        case .image: 10_000_000
        case .audio: 5_000_000
        case .video: 50_000_000
        }
    }

    /// The largest attachment maximum of all kinds (50 MB), the default download limit.
    public static let largestAttachmentMaximumBytes = 50_000_000

    /// The largest attachment maximum among `kinds` (`{image}` → 10 MB, `{image, audio}` →
    /// 10 MB): the default download limit when only those kinds are accepted. All kinds'
    /// largest when `kinds` is empty.
    public static func largestAttachmentMaximumBytes(of kinds: Set<MediaKind>) -> Int {
        kinds.map(\.attachmentMaximumBytes).max() ?? largestAttachmentMaximumBytes
    }

    /// The kind's name as scripts spell it: `"image"`, `"audio"` or `"video"`.
    public var description: String { rawValue }
}
