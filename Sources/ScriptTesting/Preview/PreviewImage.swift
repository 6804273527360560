import Foundation
import NotificationModel

/// An image attachment's bytes, read for inlining into the preview as a `data:` URL.
struct PreviewImage: Sendable {
    /// The MIME type (`image/png`).
    let mime: String
    /// The file's bytes.
    let bytes: [UInt8]
    /// The pixel size when the header says it (for the expanded view's proportions).
    let size: (width: Int, height: Int)?

    /// Reads an image attachment's file; nil when it is not an image or cannot be read.
    init?(_ attachment: NotificationAttachment) {
        guard let type = MediaType(uti: attachment.type), type.kind == .image, let url = URL(string: attachment.url), url.isFileURL,
              let data = FileManager.default.contents(atPath: url.path)
        else { return nil }
        self.mime = type.mime
        self.bytes = [UInt8](data)
        self.size = Self.pixelSize(bytes)
    }

    /// The `data:` URL of the image.
    var dataURL: String { "data:\(mime);base64,\(Data(bytes).base64EncodedString())" }

    /// The width and height from a PNG, GIF or JPEG header.
    static func pixelSize(_ b: [UInt8]) -> (width: Int, height: Int)? {
        func be16(_ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
        func be32(_ i: Int) -> Int { be16(i) << 16 | be16(i + 2) }
        if b.count >= 24, b.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            return (be32(16), be32(20))
        }
        if b.count >= 10, b.starts(with: Array("GIF".utf8)) {
            return (Int(b[6]) | Int(b[7]) << 8, Int(b[8]) | Int(b[9]) << 8)
        }
        guard b.count > 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
            // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) hold the height, then the width.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (be16(i + 7), be16(i + 5))
            }
            i += 2 + be16(i + 2)
        }
        return nil
    }
}
