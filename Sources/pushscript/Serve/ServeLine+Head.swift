import NotificationModel

extension ServeLine {
    /// The answer to a line longer than `--max-line-bytes`: an error under the line's `id` when
    /// its first bytes hold it whole, else under null.
    static func tooLong(head: [UInt8], length: Int, maximum: Int) -> String {
        errorLine(
            id: id(inHead: head),
            message: "the line is \(length) bytes long, over the \(maximum)-byte cap (--max-line-bytes); send a shorter request or start serve with a higher cap")
    }

    /// The `id` member of the JSON object that `head` begins, when `head` holds it whole and
    /// every member before it; null otherwise. Reads no further than it must.
    static func id(inHead head: [UInt8]) -> JSONValue {
        var cursor = HeadCursor(bytes: head)
        guard cursor.skipSpace(), cursor.take(UInt8(ascii: "{")) else { return .null }
        while true {
            guard cursor.skipSpace(), let keyStart = cursor.position, cursor.skipString() else { return .null }
            let key = head[keyStart..<cursor.index]
            guard cursor.skipSpace(), cursor.take(UInt8(ascii: ":")), cursor.skipSpace(), let valueStart = cursor.position,
                cursor.skipValue()
            else { return .null }
            if key.elementsEqual(#""id""#.utf8) {
                return (try? JSONValue(jsonString: String(decoding: head[valueStart..<cursor.index], as: UTF8.self))) ?? .null
            }
            guard cursor.skipSpace(), cursor.take(UInt8(ascii: ",")) else { return .null }
        }
    }
}

/// Walks JSON text without building values: enough to find where a member ends.
private struct HeadCursor {
    let bytes: [UInt8]
    var index = 0

    var position: Int? { index < bytes.count ? index : nil }

    mutating func skipSpace() -> Bool {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        return index < bytes.count
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Past a string that starts here; false when it does not end within the bytes.
    mutating func skipString() -> Bool {
        guard take(UInt8(ascii: "\"")) else { return false }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return true
            default: index += 1
            }
        }
        return false
    }

    /// Past a value that starts here (nested ones by their brackets).
    mutating func skipValue() -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    guard skipString() else { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        return true
                    }
                default: break
                }
                index += 1
            }
            return false
        default:
            // A number, true, false or null: up to the next delimiter, which must be there.
            while index < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                index += 1
            }
            return index < bytes.count
        }
    }
}
