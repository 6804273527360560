import Foundation

/// Hex: lower case out, either case in.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: [UInt8]) -> Result<[UInt8], HostFailure> {
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            default: return nil
            }
        }
        var out = [UInt8]()
        out.reserveCapacity(text.count / 2)
        var high: UInt8 = 0
        for (index, c) in text.enumerated() {
            guard let v = value(c) else { return .failure(HostFailure("\(shown(c)) at position \(index + 1) is not a hex digit")) }
            if index % 2 == 0 { high = v } else { out.append(high << 4 | v) }
        }
        guard text.count % 2 == 0 else { return .failure(HostFailure("an odd number of digits (\(text.count))")) }
        return .success(out)
    }
}

/// A byte for a message: the character in quotes when it is printable ASCII, else its code.
/// A byte in a decoder's message: the character when printable, else its hex value.
func shown(_ byte: UInt8) -> String {
    (0x20..<0x7f).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : String(format: "byte 0x%02x", byte)
}
