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
        head.withUnsafeBufferPointer { head in
            var cursor = MemberScanner(bytes: head)
            guard cursor.skipSpace(), cursor.take(UInt8(ascii: "{")) else { return .null }
            while true {
                guard cursor.skipSpace(), let keyStart = cursor.position, cursor.skipString() else { return .null }
                let key = UnsafeBufferPointer(rebasing: head[keyStart..<cursor.index])
                guard cursor.skipSpace(), cursor.take(UInt8(ascii: ":")), cursor.skipSpace(), let valueStart = cursor.position,
                    cursor.skipValue()
                else { return .null }
                if key.elementsEqual(#""id""#.utf8) {
                    return (try? JSONValue(jsonUTF8: Array(head[valueStart..<cursor.index]))) ?? .null
                }
                guard cursor.skipSpace(), cursor.take(UInt8(ascii: ",")) else { return .null }
            }
        }
    }

    /// The app a line's request is for, found without reading the line as JSON: the top-level
    /// `app` member when it is a string (the last one, as reading keeps), `defaultApp` (else
    /// `""`) when there is none; nil when the line is not a JSON object that can be walked.
    /// The line is read whole later, off the input's lock.
    static func app(in line: [UInt8], defaultApp: String?) -> String? {
        line.withUnsafeBufferPointer { line in
            var cursor = MemberScanner(bytes: line)
            guard cursor.skipSpace(), cursor.take(UInt8(ascii: "{")) else { return nil }
            var app: String?
            guard cursor.skipSpace() else { return nil }
            if cursor.take(UInt8(ascii: "}")) { return defaultApp ?? "" }
            while true {
                guard cursor.skipSpace(), let keyStart = cursor.position, cursor.skipString() else { return nil }
                let isApp = cursor.index - keyStart == 5 && line[keyStart + 1] == UInt8(ascii: "a")
                    && line[keyStart + 2] == UInt8(ascii: "p") && line[keyStart + 3] == UInt8(ascii: "p")
                guard cursor.skipSpace(), cursor.take(UInt8(ascii: ":")), cursor.skipSpace(), let valueStart = cursor.position,
                    cursor.skipValue()
                else { return nil }
                if isApp {
                    let value = UnsafeBufferPointer(rebasing: line[valueStart..<cursor.index])
                    if value.count >= 2, value[0] == UInt8(ascii: "\""), !value.contains(UInt8(ascii: "\\")) {
                        app = String(decoding: UnsafeBufferPointer(rebasing: value[1..<(value.count - 1)]), as: UTF8.self)
                    } else {
                        app = (try? JSONValue(jsonUTF8: Array(value)))?.stringValue ?? ""
                    }
                }
                guard cursor.skipSpace() else { return nil }
                if cursor.take(UInt8(ascii: "}")) { return app ?? defaultApp ?? "" }
                guard cursor.take(UInt8(ascii: ",")) else { return nil }
            }
        }
    }
}
