import Foundation
import NotificationModel

/// The file names of one download: `<stem>-<random>.download` while it streams, then
/// `<stem>-<random>.<type's extension>` (`.bin` for bytes of no supported type). The stem comes
/// from the URL's last path component, reduced to letters, digits, `-` and `_`.
struct AttachmentName: Sendable {
    let stem: String

    init(for url: URL) {
        let base = url.deletingPathExtension().lastPathComponent
        let kept = base.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
        var stem = String(String.UnicodeScalarView(kept.prefix(40)))
        if stem.isEmpty { stem = "download" }
        let random = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        self.stem = "\(stem)-\(random)"
    }

    /// The name while the body streams.
    var partial: String { "\(stem).download" }

    /// The name once the type is known.
    func final(for type: MediaType?) -> String {
        "\(stem).\(type?.fileExtension ?? MediaType.unknownFileExtension)"
    }
}
