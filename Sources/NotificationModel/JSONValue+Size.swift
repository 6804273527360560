extension JSONValue {
    /// How many bytes the value's compact JSON text has (what ``jsonBytes(keyOrder:prettyPrinted:)``
    /// writes by default), counted without writing it; nil when the value holds a number JSON
    /// cannot (a non-finite one).
    public var compactByteCount: Int? {
        switch self {
        case .null: return 4
        case .bool(let bool): return bool ? 4 : 5
        case .integer(let integer):
            var count = integer < 0 ? 2 : 1
            var rest = integer.magnitude / 10
            while rest > 0 {
                count += 1
                rest /= 10
            }
            return count
        case .number(let double):
            return double.isFinite ? JSONWriter.text(of: double).utf8.count : nil
        case .string(let string):
            return Self.quotedByteCount(string)
        case .array(let array):
            var count = 1 + max(array.count, 1)  // brackets and commas
            for element in array {
                guard let size = element.compactByteCount else { return nil }
                count += size
            }
            return count
        case .object(let object):
            var count = 1 + max(object.count, 1) + object.count  // braces, commas and colons
            for (key, value) in object {
                guard let size = value.compactByteCount else { return nil }
                count += Self.quotedByteCount(key) + size
            }
            return count
        }
    }

    /// The bytes of `string` written as a JSON string, quotes and escapes included.
    private static func quotedByteCount(_ string: String) -> Int {
        var count = 2
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x08, 0x09, 0x0A, 0x0C, 0x0D: count += 2
            case 0x00..<0x20: count += 6
            default: count += 1
            }
        }
        return count
    }
}
