import Foundation

/// A file attached to a notification (`UNNotificationAttachment`), checked against Apple's
/// type and size rules when it is made.
public struct NotificationAttachment: Sendable, Hashable, Codable, JSONWritable {
    /// The attachment's identifier.
    public let identifier: String
    /// The uniform type identifier of the file (`public.jpeg`, …).
    public let type: String
    /// The file, as a `file://` URL.
    public let url: String
    /// The file's size in bytes.
    public let size: Int
    /// The thumbnail options.
    public let options: AttachmentOptions

    /// Checks a file and makes the attachment: the type (nil when unknown) must be one iOS
    /// attaches, the size within its kind's maximum, `url` a `file://` URL, the options in range.
    ///
    /// - Throws: ``AttachmentError``; its message starts `unsupported type` or `too large`
    ///   for the type and size rules.
    public init(
        identifier: String,
        type: String?,
        url: String,
        size: Int,
        options: AttachmentOptions = AttachmentOptions()
    ) throws(AttachmentError) {
        let kind = try AttachmentKind.check(type: type, size: size)
        guard url.lowercased().hasPrefix("file://") else {
            throw AttachmentError(.invalidValue, "url must be a file:// URL")
        }
        try options.validate()
        self.identifier = identifier
        // check(type:size:) refuses a nil or unknown type, so the search always finds it.
        self.type = kind.typeIdentifiers.first { $0 == type } ?? kind.typeIdentifiers[0]
        self.url = url
        self.size = size
        self.options = options
    }

    /// The kind of file: image, audio or video.
    public var kind: AttachmentKind {
        // The initializer accepts only types that have a kind.
        AttachmentKind(typeIdentifier: type) ?? .image
    }

    private enum CodingKeys: String, CodingKey {
        case identifier, type, url, size, options
    }

    /// Decodes an attachment and checks it as ``init(identifier:type:url:size:options:)`` does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                identifier: container.decode(String.self, forKey: .identifier),
                type: container.decode(String.self, forKey: .type),
                url: container.decode(String.self, forKey: .url),
                size: container.decode(Int.self, forKey: .size),
                options: container.decodeIfPresent(AttachmentOptions.self, forKey: .options) ?? AttachmentOptions()
            )
        } catch let error as AttachmentError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// The `file://` URL of a path, as ``url`` holds it.
    public static func fileURL(forPath path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }

    /// Writes the attachment: `{identifier, type, url, size, options}`, options left out when
    /// none is set.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        sink.key(literal: "identifier")
        sink.write(string: identifier)
        sink.key(literal: "type")
        sink.write(string: type)
        sink.key(literal: "url")
        sink.write(string: url)
        sink.key(literal: "size")
        sink.write(integer: Int64(size))
        if !options.isEmpty {
            sink.key(literal: "options")
            options.write(into: &sink)
        }
        sink.endObject()
    }
}
