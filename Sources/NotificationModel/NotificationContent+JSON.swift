extension NotificationContent {
    /// The content as the result's `content` (SPEC §2): every field, in ``ContentField`` order
    /// when written with ``jsonKeyOrder``; unset optional fields as `null`, empty strings as
    /// `""`; attachments in the order attached.
    public var jsonValue: JSONValue {
        var members: [String: JSONValue] = [:]
        for field in ContentField.allCases {
            members[field.rawValue] = value(of: field) ?? .null
        }
        return .object(members)
    }

    /// The same as ``jsonValue``; the name the result writer uses.
    public func toJSON() -> JSONValue {
        jsonValue
    }

    /// Writes ``jsonValue`` in ``jsonKeyOrder``, field by field, without making it.
    ///
    /// - Throws: ``JSONError`` for a non-finite number (a `relevanceScore` set without the
    ///   checks), naming where it is.
    public func writeJSON(into writer: inout JSONWriter) throws(JSONError) {
        writer.beginObject()
        for field in ContentField.allCases {
            writer.key(field.rawValue)
            switch field {
            case .title: writer.write(string: title)
            case .subtitle: writer.write(string: subtitle)
            case .body: writer.write(string: body)
            case .categoryIdentifier: writer.write(string: categoryIdentifier)
            case .threadIdentifier: writer.write(string: threadIdentifier)
            case .launchImageName: writer.write(string: launchImageName)
            case .summaryArgument: writer.write(string: summaryArgument)
            case .summaryArgumentCount: writer.write(integer: Int64(summaryArgumentCount))
            case .userInfo: try writer.write(.object(userInfo))
            default: try writer.write(value(of: field) ?? .null, order: Self.jsonKeyOrder.child(field.rawValue))
            }
        }
        writer.endObject()
    }

    /// The order of the result's `content`: the fields in SPEC §1 order, the sound's and
    /// attachments' keys in theirs, `userInfo` sorted.
    public static let jsonKeyOrder = JSONKeyOrder(
        first: ContentField.names,
        nested: [
            ContentField.sound.rawValue: NotificationSound.jsonKeyOrder,
            ContentField.attachments.rawValue: NotificationAttachment.jsonKeyOrder,
        ]
    )
}
