import Foundation
import NotificationModel

/// The one byte form of a JSON value that manifests are signed in.
///
/// - no whitespace anywhere;
/// - object keys sorted by their UTF-8 bytes, each once;
/// - integers only (`-?[1-9][0-9]*` or `0`, within 64 bits); no fractions, exponents, `-0`;
/// - strings in UTF-8 as they are, except `"` as `\"`, `\` as `\\` and the control characters
///   U+0000–U+001F as `\u00xx` (lower-case hex); no other escape;
/// - `true`, `false`, `null` as JSON writes them.
///
/// A text is canonical when writing what it reads gives back the very same bytes: that is how
/// ``read(_:)`` checks it, so a duplicate key, a needless escape, a space or a byte that is not
/// UTF-8 all make it refused.
enum CanonicalJSON {
    /// A value that has no canonical form (a number with a fraction).
    struct NotCanonical: Error {
        let message: String
    }

    /// The canonical bytes of `value`.
    static func bytes(_ value: JSONValue) throws(NotCanonical) -> [UInt8] {
        var out: [UInt8] = []
        try write(value, to: &out)
        return out
    }

    /// The value of canonical bytes; throws when they are not JSON or not canonical.
    static func read(_ bytes: [UInt8]) throws(NotCanonical) -> JSONValue {
        let value: JSONValue
        do { value = try JSONValue(jsonData: Data(bytes)) } catch {
            throw NotCanonical(message: error.message)
        }
        let again = try Self.bytes(value)
        guard again == bytes else {
            throw NotCanonical(message: "not in canonical form (sorted keys, no spaces, integers only, minimal escapes)")
        }
        return value
    }

    private static func write(_ value: JSONValue, to out: inout [UInt8]) throws(NotCanonical) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .integer(let n): out += Array(String(n).utf8)
        case .number:
            throw NotCanonical(message: "a number that is not an integer; manifests hold integers only")
        case .string(let s): writeString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            let keys = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                writeString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                try write(members[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func writeString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
