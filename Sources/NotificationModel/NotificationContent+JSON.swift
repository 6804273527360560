extension NotificationContent: JSONWritable {
    /// Writes the content as the result's `content` (SPEC §2): every field in ``ContentField``
    /// order; unset optional fields as `null`, empty strings as `""`; attachments in the order
    /// attached, `userInfo` with its keys sorted.
    @inlinable
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        for field in ContentField.allCases {
            sink.key(literal: field.literalName)
            write(field, into: &sink)
        }
        sink.endObject()
    }

    /// Writes one field's value; `null` for an unset one. What the content's JSON holds under
    /// the field's name, and what ``value(of:)-(ContentField)`` gives.
    @inlinable
    public func write(_ field: ContentField, into sink: inout some JSONSink) {
        switch field {
        case .title: sink.write(string: title)
        case .subtitle: sink.write(string: subtitle)
        case .body: sink.write(string: body)
        case .badge:
            if let badge { sink.write(integer: Int64(badge)) } else { sink.writeNull() }
        case .sound:
            if let sound { sound.write(into: &sink) } else { sink.writeNull() }
        case .categoryIdentifier: sink.write(string: categoryIdentifier)
        case .threadIdentifier: sink.write(string: threadIdentifier)
        case .targetContentIdentifier: sink.write(optional: targetContentIdentifier)
        case .interruptionLevel: sink.write(string: interruptionLevel.rawValue)
        case .relevanceScore: sink.write(number: relevanceScore)
        case .filterCriteria: sink.write(optional: filterCriteria)
        case .launchImageName: sink.write(string: launchImageName)
        case .summaryArgument: sink.write(string: summaryArgument)
        case .summaryArgumentCount: sink.write(integer: Int64(summaryArgumentCount))
        case .userInfo: sink.write(.object(userInfo))
        case .attachments: sink.write(array: attachments)
        }
    }
}
