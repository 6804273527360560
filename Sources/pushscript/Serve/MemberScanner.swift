#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks JSON text without building values: enough to find where a member ends. It reads the
/// bytes in place (the caller keeps them alive), one comparison a byte.
struct MemberScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var position: Int? { index < bytes.count ? index : nil }

    @inline(__always)
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    mutating func skipSpace() -> Bool {
        while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
        return index < bytes.count
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Past a string that starts here; false when it does not end within the bytes.
    mutating func skipString() -> Bool {
        guard take(UInt8(ascii: "\"")), let base = bytes.baseAddress else { return false }
        let start = index
        while index < bytes.count {
            // the next quote; it ends the string unless an odd number of backslashes comes before it
            guard let found = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index) else { break }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var backslashes = 0
            while quote - backslashes - 1 >= start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            index = quote + 1
            if backslashes % 2 == 0 { return true }
        }
        index = bytes.count
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
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || Self.isSpace(byte) { break }
                index += 1
            }
            return index < bytes.count
        }
    }
}
