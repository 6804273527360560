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
