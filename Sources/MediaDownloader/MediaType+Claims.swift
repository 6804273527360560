import Foundation
import NotificationModel

/// What a source other than the bytes says a file's type is: a server's `Content-Type`, or the
/// extension of a URL's path. A claim is never trusted; it only lets a disagreement with the
/// bytes be reported.
public enum MediaTypeClaim: Sendable, Hashable {
    /// The source says nothing useful: no `Content-Type`, a generic one
    /// (`application/octet-stream`), or no file extension in the URL.
    case none
    /// The source names a supported type.
    case type(MediaType)
    /// The source names something that is not a supported type (`text/html`, `.webp`).
    case other(String)
}

extension MediaType {
    /// MIME types (lower case) that servers use for each type, beyond the preferred one.
    private static let mimeAliases: [String: MediaType] = [
        "image/jpg": .jpeg, "image/pjpeg": .jpeg, "image/x-png": .png,
        "audio/x-wav": .wav, "audio/wave": .wav, "audio/vnd.wave": .wav,
        "audio/x-aiff": .aiff, "audio/aifc": .aiff, "audio/x-aifc": .aiff,
        "audio/mp3": .mp3, "audio/mpeg3": .mp3, "audio/x-mpeg": .mp3, "audio/x-mp3": .mp3, "audio/mpg": .mp3,
        "audio/x-m4a": .m4a, "audio/m4a": .m4a, "audio/x-mp4": .m4a,
        "video/mpg": .mpeg, "video/x-mpeg": .mpeg, "video/mp2p": .mpeg,
        "video/x-mpeg2": .mpeg2Video, "video/mpv": .mpeg2Video,
        "video/x-m4v": .mp4, "video/3gpp": .mp4, "video/3gpp2": .mp4, "application/mp4": .mp4,
        "video/x-msvideo": .avi, "video/msvideo": .avi, "video/vnd.avi": .avi,
    ]

    /// File extensions (lower case, without the dot) that name each type.
    private static let extensionAliases: [String: MediaType] = [
        "jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "png": .png, "gif": .gif,
        "wav": .wav, "wave": .wav, "aif": .aiff, "aiff": .aiff, "aifc": .aiff,
        "mp3": .mp3, "m4a": .m4a, "m4b": .m4a,
        "mpg": .mpeg, "mpeg": .mpeg, "m1v": .mpeg2Video, "m2v": .mpeg2Video,
        "mp4": .mp4, "m4v": .mp4, "3gp": .mp4, "3g2": .mp4, "avi": .avi,
    ]

    /// Content types that say nothing about the type.
    private static let genericMIMETypes: Set<String> = [
        "application/octet-stream", "binary/octet-stream", "application/binary", "application/unknown",
    ]

    /// What a `Content-Type` header value claims, its parameters (`; charset=…`) ignored.
    public static func claim(contentType: String?) -> MediaTypeClaim {
        guard let contentType else { return .none }
        let essence = contentType.split(separator: ";", maxSplits: 1).first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if essence.isEmpty || genericMIMETypes.contains(essence) { return .none }
        if let type = all.first(where: { $0.mime == essence }) ?? mimeAliases[essence] { return .type(type) }
        return .other(essence)
    }

    /// What the extension of a URL's path claims (`https://x/a.JPG?s=1` claims ``jpeg``);
    /// `.none` when the last path component has no extension.
    public static func claim(urlPath url: URL) -> MediaTypeClaim {
        let ext = url.pathExtension.lowercased()
        if ext.isEmpty { return .none }
        if let type = extensionAliases[ext] { return .type(type) }
        return .other("." + ext)
    }

    /// Whether a claim of `claimed` agrees with bytes of this type. The MPEG program stream and
    /// MPEG video elementary stream types agree with each other, since servers label both
    /// `video/mpeg`.
    public func agrees(withClaimed claimed: MediaType) -> Bool {
        if claimed == self { return true }
        let mpegFamily: Set<MediaType> = [.mpeg, .mpeg2Video]
        return mpegFamily.contains(claimed) && mpegFamily.contains(self)
    }

    /// The warnings, one per source, for a server's `Content-Type` and a URL's extension that
    /// disagree with the type the bytes show (`sniffed`, nil when the bytes show none). Empty
    /// when every claim agrees or says nothing.
    public static func mismatchWarnings(sniffed: MediaType?, contentType: String?, url: URL) -> [String] {
        var warnings: [String] = []
        let bytesSay = sniffed.map { "the bytes are \($0.uti)" } ?? "the bytes are of no supported type"
        let sources: [(String, MediaTypeClaim)] = [
            ("Content-Type '\(contentType ?? "")'", claim(contentType: contentType)),
            ("URL extension '.\(url.pathExtension)'", claim(urlPath: url)),
        ]
        for (source, claim) in sources {
            switch claim {
            case .none:
                continue
            case .type(let claimed):
                if let sniffed, sniffed.agrees(withClaimed: claimed) { continue }
                warnings.append("\(source) claims \(claimed.uti) but \(bytesSay); typed from the bytes")
            case .other:
                if sniffed == nil { continue }
                warnings.append("\(source) is not a supported media type but \(bytesSay); typed from the bytes")
            }
        }
        return warnings
    }
}
