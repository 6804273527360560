/// The kinds of file iOS attaches to a notification, with the types and maximum sizes of
/// Apple's `UNNotificationAttachment` rules (a megabyte is 1,000,000 bytes, as Apple counts).
/// The types of each kind are the ``MediaType`` table's.
public enum AttachmentKind: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// JPEG, GIF and PNG images, up to 10 MB.
    case image
    /// WAV, AIFF, MP3 and MPEG-4 audio, up to 5 MB.
    case audio
    /// MPEG, MPEG-2, MPEG-4 and AVI video, up to 50 MB.
    case video

    /// The uniform type identifiers of this kind, in the order of ``MediaType/all``.
    public var typeIdentifiers: [String] {
        MediaType.all.filter { $0.kind == self }.map(\.uti)
    }

    /// The largest attachment of this kind, in bytes.
    public var maximumSize: Int {
        switch self {
        case .image: 10_000_000
        case .audio: 5_000_000
        case .video: 50_000_000
        }
    }

    /// The largest attachment of any kind, in bytes: 50 MB.
    public static let largestMaximumSize = allCases.map(\.maximumSize).max() ?? 0

    /// The largest maximum among `kinds` (`{image}` → 10 MB, `{image, audio}` → 10 MB): the
    /// default download limit when only those kinds are accepted. All kinds' largest when
    /// `kinds` is empty.
    public static func largestMaximumSize(of kinds: Set<AttachmentKind>) -> Int {
        kinds.map(\.maximumSize).max() ?? largestMaximumSize
    }

    /// Every type identifier iOS attaches, image types first.
    public static let supportedTypeIdentifiers = MediaType.all.map(\.uti)

    /// The kind a type identifier belongs to; nil for a type iOS does not attach.
    public init?(typeIdentifier: String) {
        guard let type = MediaType(uti: typeIdentifier) else { return nil }
        self = type.kind
    }

    /// The kind's name as scripts spell it: `"image"`, `"audio"` or `"video"`.
    public var description: String { rawValue }

    /// Checks a file against the rules: its type (nil when unknown) must be one iOS attaches,
    /// and its size within the maximum of the type's kind.
    ///
    /// - Throws: ``AttachmentError`` whose message starts `unsupported type` or `too large`.
    public static func check(type: String?, size: Int) throws(AttachmentError) -> AttachmentKind {
        guard let type, let kind = AttachmentKind(typeIdentifier: type) else {
            let subject = type.map { "\($0) is not a type" } ?? "the file's type is not one"
            throw AttachmentError(.unsupportedType, "unsupported type: \(subject) iOS attaches (\(supportedSummary))")
        }
        guard size >= 0 else {
            throw AttachmentError(.invalidValue, "size must be an integer >= 0")
        }
        guard size <= kind.maximumSize else {
            throw AttachmentError(
                .tooLarge,
                "too large: \(size) bytes, \(kind.article) attachment may be at most \(kind.maximumSize) bytes (\(kind.maximumSize / 1_000_000) MB)"
            )
        }
        return kind
    }

    private var article: String {
        self == .image || self == .audio ? "an \(rawValue)" : "a \(rawValue)"
    }

    private static let supportedSummary = "image: JPEG, GIF, PNG; audio: WAV, AIFF, MP3, MPEG-4 audio; video: MPEG, MPEG-2, MPEG-4, AVI"
}
