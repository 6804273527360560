/// The one base64 dialect the host reads — scripts' `base64.decode`, `--key NAME=BASE64` and
/// a fixture's `keys` alike: the standard and the URL-safe alphabet (RFC 4648 sections 4 and
/// 5), with the padding or without it (but not partial padding); nothing else, not even
/// white space. Lenient in alphabet and padding because keys and payload fields come from
/// providers that write either form; strict in everything else.
public enum Base64 {
    /// Why text is not base64, for a person: the character and its position, or the padding.
    public struct DecodeError: Error, Sendable, CustomStringConvertible {
        /// One line, lower case.
        public let message: String

        init(_ message: String) { self.message = message }

        /// The message.
        public var description: String { message }
    }

    /// The bytes of `text`.
    public static func decode(_ text: String) -> Result<[UInt8], DecodeError> {
        decode(Array(text.utf8))
    }

    /// The bytes of `text`.
    public static func decode(_ text: [UInt8]) -> Result<[UInt8], DecodeError> {
        var end = text.count
        while end > 0, text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        let padding = text.count - end
        if padding > 0, (end + padding) % 4 != 0 || padding > 2 {
            return .failure(DecodeError("\(padding) '=' after \(end) characters; padding fills the last group to 4 characters, or is left out"))
        }
        var out: [UInt8] = []
        out.reserveCapacity(end * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for index in 0..<end {
            guard let value = sextet(text[index]) else {
                return .failure(DecodeError("\(shown(text[index])) at position \(index + 1) is not a base64 character"))
            }
            buffer = buffer << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        if end % 4 == 1 { return .failure(DecodeError("\(end) characters is one more than a whole number of 4-character groups")) }
        return .success(out)
    }

    private static func sextet(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return c - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return c - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"), UInt8(ascii: "-"): return 62
        case UInt8(ascii: "/"), UInt8(ascii: "_"): return 63
        default: return nil
        }
    }
}
