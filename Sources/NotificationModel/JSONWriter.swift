/// The ``JSONSink`` that writes JSON text into a byte buffer, as
/// ``JSONValue/jsonBytes(keyOrder:prettyPrinted:)`` and every ``JSONWritable``'s text do.
///
/// Compact by default (no spaces or newlines); `prettyPrinted` indents by two spaces for
/// people. Strings escape `"`, `\` and the control characters below U+0020 (`/` is left
/// alone); integers are written without a fraction; other numbers as the shortest text that
/// reads back as the same double, with `.0` kept on integral ones (`2.0`) so they stay floats.
///
/// ```swift
/// var writer = JSONWriter()
/// result.write(into: &writer)
/// if let failure = writer.failure { throw failure }
/// let text = writer.bytes
/// ```
public struct JSONWriter: JSONSink {
    /// Whether the text is indented for people (two spaces a level).
    public let prettyPrinted: Bool
    /// The text written so far, in UTF-8.
    public private(set) var bytes: [UInt8] = []
    /// Why the text is not JSON, when it is not: the first non-finite number written, and
    /// where it is (`cannot write inf as JSON at content.list[1].x; …`). It is written as
    /// `null` so that the text stays whole.
    public private(set) var failure: JSONError?
    /// The arrays and objects begun and not yet ended, innermost last.
    private var open: [Container] = []

    /// An array or object being written: how many elements or members it has so far and, for
    /// an object, the key of the last (for the one error there is).
    private struct Container {
        let isArray: Bool
        var count = 0
        var key = ""
    }

    /// A writer with an empty text.
    public init(prettyPrinted: Bool = false) {
        self.prettyPrinted = prettyPrinted
        bytes.reserveCapacity(1024)
    }

    /// Writes `null`.
    public mutating func writeNull() {
        beginValue()
        append("null")
    }

    /// Writes `true` or `false`.
    public mutating func write(bool: Bool) {
        beginValue()
        append(bool ? "true" : "false")
    }

    /// Writes an integer's digits.
    public mutating func write(integer: Int64) {
        beginValue()
        writeInteger(integer)
    }

    /// Writes a float's shortest text; a non-finite one is written as `null` and noted as the ``failure``.
    public mutating func write(number: Double) {
        beginValue()
        guard number.isFinite else {
            if failure == nil {
                let place = JSONPath(open.map { $0.isArray ? .index($0.count - 1) : .key($0.key) })
                let at = place.components.isEmpty ? "" : " at \(place)"
                failure = JSONError("cannot write \(number) as JSON\(at); JSON numbers must be finite")
            }
            append("null")
            return
        }
        bytes.append(contentsOf: Self.text(of: number).utf8)
    }

    /// Writes a string, escaped.
    public mutating func write(string: String) {
        beginValue()
        writeString(string)
    }

    /// Begins an array.
    public mutating func beginArray() {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        open.append(Container(isArray: true))
    }

    /// Ends the array begun last.
    public mutating func endArray() {
        let array = open.removeLast()
        if array.count > 0 { newline() }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Begins an object.
    public mutating func beginObject() {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        open.append(Container(isArray: false))
    }

    /// Writes the key of the open object's next member.
    public mutating func key(_ key: String) {
        let last = open.count - 1
        if open[last].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[last].count += 1
        open[last].key = key
        newline()
        writeString(key)
        append(prettyPrinted ? ": " : ":")
    }

    /// Ends the object begun last.
    public mutating func endObject() {
        let object = open.removeLast()
        if object.count > 0 { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Before a value: in an array, the comma and line break before its element (an object's
    /// member had them before its key).
    private mutating func beginValue() {
        let last = open.count - 1
        guard last >= 0, open[last].isArray else { return }
        if open[last].count > 0 { bytes.append(UInt8(ascii: ",")) }
        open[last].count += 1
        newline()
    }

    /// The shortest text that reads back as `double`, with `.0` on integral values.
    static func text(of double: Double) -> String {
        let text = double.description
        if text.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) {
            return text
        }
        return text + ".0"
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// The decimal digits of `integer`, written without making a string.
    private mutating func writeInteger(_ integer: Int64) {
        if integer < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = integer.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    private mutating func newline() {
        guard prettyPrinted else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: open.count * 2))
    }

    /// Whether `utf8` holds a byte a JSON string escapes (below 0x20, `"` or `\`), looked for
    /// eight bytes at a time: most strings hold none and are copied whole.
    private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= utf8.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // a byte below 0x20, or one that is zero after the xor with '"' or with '\'
            let below = (word &- ones &* 0x20) & ~word
            let quote = word ^ (ones &* 0x22), slash = word ^ (ones &* 0x5C)
            let equal = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)
            if (below | equal) & highs != 0 { return true }
            index += 8
        }
        while index < utf8.count {
            let byte = base[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
            index += 1
        }
        return false
    }

    private mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if !Self.needsEscaping(utf8) {
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return
            }
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x08: append("\\b")
                case 0x09: append("\\t")
                case 0x0A: append("\\n")
                case 0x0C: append("\\f")
                case 0x0D: append("\\r")
                case 0x00..<0x20:
                    let hex = String(byte, radix: 16)
                    bytes.append(contentsOf: ("\\u00" + (hex.count == 1 ? "0" + hex : hex)).utf8)
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
