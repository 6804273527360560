import NotificationModel

extension ServeLine {
    /// The answer to a line longer than `--max-line-bytes`: an error under the line's `id` when
    /// its first bytes hold it whole, else under null.
    static func tooLong(head: [UInt8], length: Int, maximum: Int) -> [UInt8] {
        errorLine(
            id: id(inHead: head),
            message: "the line is \(length) bytes long, over the \(maximum)-byte cap (--max-line-bytes); send a shorter request or start serve with a higher cap")
    }

    /// The `id` member of the JSON object that `head` begins, when `head` holds it whole and
    /// every member before it; null otherwise. Reads no further than it must.
    static func id(inHead head: [UInt8]) -> JSONValue {
        var cursor = MemberScanner(bytes: head)
        guard cursor.skipSpace(), cursor.take(UInt8(ascii: "{")) else { return .null }
        while true {
            guard cursor.skipSpace(), let keyStart = cursor.position, cursor.skipString() else { return .null }
            let key = head[keyStart..<cursor.index]
            guard cursor.skipSpace(), cursor.take(UInt8(ascii: ":")), cursor.skipSpace(), let valueStart = cursor.position,
                cursor.skipValue()
            else { return .null }
            if key.elementsEqual(#""id""#.utf8) {
                return (try? JSONValue(jsonUTF8: head[valueStart..<cursor.index])) ?? .null
            }
            guard cursor.skipSpace(), cursor.take(UInt8(ascii: ",")) else { return .null }
        }
    }

    /// The app a line's request is for, found without reading the line as JSON: the top-level
    /// `app` member when it is a string (the last one, as reading keeps), `defaultApp` (else
    /// `""`) when there is none; nil when the line is not a JSON object that can be walked.
    /// The line is read whole later, off the input's lock.
    static func app(in line: [UInt8], defaultApp: String?) -> String? {
        var cursor = MemberScanner(bytes: line)
        guard cursor.skipSpace(), cursor.take(UInt8(ascii: "{")) else { return nil }
        var app: String?
        guard cursor.skipSpace() else { return nil }
        if cursor.take(UInt8(ascii: "}")) { return defaultApp ?? "" }
        while true {
            guard cursor.skipSpace(), let keyStart = cursor.position, cursor.skipString() else { return nil }
            let key = line[keyStart..<cursor.index]
            guard cursor.skipSpace(), cursor.take(UInt8(ascii: ":")), cursor.skipSpace(), let valueStart = cursor.position,
                cursor.skipValue()
            else { return nil }
            if key.elementsEqual(#""app""#.utf8) {
                let value = line[valueStart..<cursor.index]
                if value.first == UInt8(ascii: "\""), !value.contains(UInt8(ascii: "\\")) {
                    app = String(decoding: value.dropFirst().dropLast(), as: UTF8.self)
                } else {
                    app = (try? JSONValue(jsonUTF8: value))?.stringValue ?? ""
                }
            }
            guard cursor.skipSpace() else { return nil }
            if cursor.take(UInt8(ascii: "}")) { return app ?? defaultApp ?? "" }
            guard cursor.take(UInt8(ascii: ",")) else { return nil }
        }
    }
}
