/// A media type that a notification attachment may have: its UTI, MIME type, file extension
/// and kind. This table is the one list of the types iOS attaches: ``AttachmentKind``'s type
/// identifiers, the downloader's sniffing and the preview's MIME types all read it.
///
/// The UTIs are the ones `UNNotificationAttachment` names. Each type has one file extension,
/// the one whose UTI on Apple platforms is exactly this type's UTI, because iOS decides an
/// attachment's type by its file name:
///
/// | type | UTI | MIME | extension |
/// |---|---|---|---|
/// | ``jpeg`` | `public.jpeg` | `image/jpeg` | `jpg` |
/// | ``gif`` | `com.compuserve.gif` | `image/gif` | `gif` |
/// | ``png`` | `public.png` | `image/png` | `png` |
/// | ``wav`` | `com.microsoft.waveform-audio` | `audio/wav` | `wav` |
/// | ``aiff`` | `public.aiff-audio` | `audio/aiff` | `aiff` (AIFC files too) |
/// | ``mp3`` | `public.mp3` | `audio/mpeg` | `mp3` |
/// | ``m4a`` | `public.mpeg-4-audio` | `audio/mp4` | `m4a` |
/// | ``mpeg`` | `public.mpeg` | `video/mpeg` | `mpg` |
/// | ``mpeg2Video`` | `public.mpeg-2-video` | `video/mpeg2` | `m2v` |
/// | ``mp4`` | `public.mpeg-4` | `video/mp4` | `mp4` (M4V-branded files too) |
/// | ``avi`` | `public.avi` | `video/avi` | `avi` |
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// The Uniform Type Identifier, e.g. `public.jpeg`.
    public let uti: String
    /// The MIME type, e.g. `image/jpeg`.
    public let mime: String
    /// The file extension without the dot, e.g. `jpg`.
    public let fileExtension: String
    /// Whether it is an image, audio or video.
    public let kind: AttachmentKind

    /// The type's UTI.
    public var description: String { uti }

    /// JPEG image (`public.jpeg`, `.jpg`).
    public static let jpeg = MediaType(uti: "public.jpeg", mime: "image/jpeg", fileExtension: "jpg", kind: .image)
    /// GIF image (`com.compuserve.gif`, `.gif`).
    public static let gif = MediaType(uti: "com.compuserve.gif", mime: "image/gif", fileExtension: "gif", kind: .image)
    /// PNG image (`public.png`, `.png`).
    public static let png = MediaType(uti: "public.png", mime: "image/png", fileExtension: "png", kind: .image)
    /// WAVE audio (`com.microsoft.waveform-audio`, `.wav`).
    public static let wav = MediaType(
        uti: "com.microsoft.waveform-audio", mime: "audio/wav", fileExtension: "wav", kind: .audio)
    /// AIFF or AIFF-C audio (`public.aiff-audio`, `.aiff`).
    public static let aiff = MediaType(uti: "public.aiff-audio", mime: "audio/aiff", fileExtension: "aiff", kind: .audio)
    /// MPEG-1/2 Layer III audio (`public.mp3`, `.mp3`).
    public static let mp3 = MediaType(uti: "public.mp3", mime: "audio/mpeg", fileExtension: "mp3", kind: .audio)
    /// MPEG-4 audio, e.g. AAC in an `.m4a` file (`public.mpeg-4-audio`, `.m4a`).
    public static let m4a = MediaType(uti: "public.mpeg-4-audio", mime: "audio/mp4", fileExtension: "m4a", kind: .audio)
    /// MPEG-1/2 program stream (`public.mpeg`, `.mpg`).
    public static let mpeg = MediaType(uti: "public.mpeg", mime: "video/mpeg", fileExtension: "mpg", kind: .video)
    /// MPEG-1/2 video elementary stream (`public.mpeg-2-video`, `.m2v`).
    public static let mpeg2Video = MediaType(
        uti: "public.mpeg-2-video", mime: "video/mpeg2", fileExtension: "m2v", kind: .video)
    /// MPEG-4 video, M4V and 3GPP included (`public.mpeg-4`, `.mp4`).
    public static let mp4 = MediaType(uti: "public.mpeg-4", mime: "video/mp4", fileExtension: "mp4", kind: .video)
    /// AVI video (`public.avi`, `.avi`).
    public static let avi = MediaType(uti: "public.avi", mime: "video/avi", fileExtension: "avi", kind: .video)

    /// Every supported type, images first, then audio, then video.
    public static let all: [MediaType] = [jpeg, gif, png, wav, aiff, mp3, m4a, mpeg, mpeg2Video, mp4, avi]

    /// The MIME type reported for bytes of no supported type.
    public static let unknownMIME = "application/octet-stream"

    /// The file extension (without the dot) given to a download of no supported type.
    public static let unknownFileExtension = "bin"
}

extension MediaType {
    /// The supported type with this UTI, or nil.
    public init?(uti: String) {
        guard let found = MediaType.all.first(where: { $0.uti == uti }) else { return nil }
        self = found
    }
}
