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
    public var bytes: [UInt8] { text.array }
    /// Why the text is not JSON, when it is not: the first non-finite number written, and
    /// where it is (`cannot write inf as JSON at content.list[1].x; …`). It is written as
    /// `null` so that the text stays whole.
    public private(set) var failure: JSONError?
    /// The text, in a buffer of its own (copied before a write when a copy of the writer shares it).
    private var text: JSONText
    /// The innermost array or object begun and not yet ended (the top level when none is).
    private var top = Container(kind: .topLevel)
    /// The arrays and objects around ``top``, innermost last.
    private var outer: [Container] = []

    /// An array or object being written: how many elements or members it has so far and, for
    /// an object, the key of the last (for the one error there is).
    private struct Container {
        enum Kind { case topLevel, array, object }
        let kind: Kind
        var count = 0
        var key = Key.none

        /// The key of an object's last member.
        enum Key {
            case none
            case text(String)
            case literal(StaticString)

            var text: String {
                switch self {
                case .none: ""
                case .text(let text): text
                case .literal(let literal): literal.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
                }
            }
        }
    }

    /// A writer with an empty text.
    public init(prettyPrinted: Bool = false) {
        self.prettyPrinted = prettyPrinted
        text = JSONText(capacity: 1024)
        // room for the depth of a result (result, content, userInfo, aps, alert and more)
        outer.reserveCapacity(8)
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
                let levels = (outer + [top]).filter { $0.kind != .topLevel }
                let place = JSONPath(levels.map { $0.kind == .array ? .index($0.count - 1) : .key($0.key.text) })
                let at = place.components.isEmpty ? "" : " at \(place)"
                failure = JSONError("cannot write \(number) as JSON\(at); JSON numbers must be finite")
            }
            append("null")
            return
        }
        if writeThousandths(number) { return }
        var digits = Self.text(of: number)
        digits.withUTF8 { unique().append($0) }
    }

    /// Writes a string, escaped.
    public mutating func write(string: String) {
        beginValue()
        writeString(string)
    }

    /// Begins an array.
    public mutating func beginArray() {
        beginValue()
        unique().append(UInt8(ascii: "["))
        outer.append(top)
        top = Container(kind: .array)
    }

    /// Ends the array begun last.
    public mutating func endArray() {
        let count = top.count
        top = outer.removeLast()
        if count > 0 { newline() }
        unique().append(UInt8(ascii: "]"))
    }

    /// Begins an object.
    public mutating func beginObject() {
        beginValue()
        unique().append(UInt8(ascii: "{"))
        outer.append(top)
        top = Container(kind: .object)
    }

    /// Writes the key of the open object's next member.
    public mutating func key(_ key: String) {
        if top.count > 0 { unique().append(UInt8(ascii: ",")) }
        top.count += 1
        top.key = .text(key)
        newline()
        writeString(key)
        // (a reference to the text held across writeString would make unique() copy it)
        if prettyPrinted { append(": ") } else { unique().append(UInt8(ascii: ":")) }
    }

    /// Writes a key fixed in the program as it is: it has nothing to escape.
    public mutating func key(literal key: StaticString) {
        let comma = top.count > 0
        top.count += 1
        top.key = .literal(key)
        if prettyPrinted {
            if comma { unique().append(UInt8(ascii: ",")) }
            newline()
            let text = unique()
            key.withUTF8Buffer { text.appendQuoted($0) }
            Self.append(": ", to: text)
            return
        }
        // compact: `,"key":` in one reservation
        let text = unique()
        key.withUTF8Buffer { text.appendKey($0, comma: comma) }
    }

    /// Ends the object begun last.
    public mutating func endObject() {
        let count = top.count
        top = outer.removeLast()
        if count > 0 { newline() }
        unique().append(UInt8(ascii: "}"))
    }

    /// Before a value: in an array, the comma and line break before its element (an object's
    /// member had them before its key).
    @inline(__always)
    private mutating func beginValue() {
        guard top.kind == .array else { return }
        if top.count > 0 { unique().append(UInt8(ascii: ",")) }
        top.count += 1
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

    /// The text's buffer, made this writer's own first if a copy of the writer shares it.
    @inline(__always)
    private mutating func unique() -> JSONText {
        if !isKnownUniquelyReferenced(&text) { text = text.copy() }
        return text
    }

    private mutating func append(_ literal: StaticString) {
        let text = unique()
        literal.withUTF8Buffer { text.append($0) }
    }

    /// The decimal digits of `integer`, written without making a string.
    private mutating func writeInteger(_ integer: Int64) {
        if integer < 0 { unique().append(UInt8(ascii: "-")) }
        writeDigits(integer.magnitude)
    }

    /// Writes a finite number that is a whole count of thousandths below 10^12 in size (a
    /// duration rounded to the microsecond, a score) as its shortest text, the digits of the
    /// thousandths without making a string, and returns true; any other number is left to
    /// ``text(of:)``. The text is the one ``text(of:)`` gives: below 10^12, no two numbers with
    /// at most three decimals read as the same double, so the decimals (trailing zeros cut,
    /// one kept) are the shortest that read back as it, and Swift writes no exponent there.
    private mutating func writeThousandths(_ number: Double) -> Bool {
        let magnitude = number.magnitude
        guard magnitude < 1e12 else { return false }
        let scaled = (magnitude * 1000).rounded()
        guard scaled / 1000 == magnitude else { return false }
        let thousandths = UInt64(scaled)
        if number.sign == .minus { unique().append(UInt8(ascii: "-")) }
        writeDigits(thousandths / 1000)
        var fraction = thousandths % 1000
        var places = 3
        while places > 1, fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        let text = unique()
        text.append(UInt8(ascii: "."))
        var divisor: UInt64 = places == 3 ? 100 : places == 2 ? 10 : 1
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
        return true
    }

    /// The decimal digits of `magnitude`.
    private mutating func writeDigits(_ magnitude: UInt64) {
        let text = unique()
        var magnitude = magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            text.append(UnsafeBufferPointer(rebasing: buffer.bindMemory(to: UInt8.self)[(24 - count)...]))
        }
    }

    @inline(__always)
    private mutating func newline() {
        guard prettyPrinted else { return }
        let text = unique()
        text.append(UInt8(ascii: "\n"))
        for _ in 0..<(outer.count * 2) { text.append(UInt8(ascii: " ")) }
    }

    /// Whether `utf8` holds a byte a JSON string escapes (below 0x20, `"` or `\`), looked for
    /// eight bytes at a time: most strings hold none and are copied whole.
    private static func needsEscaping(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress, utf8.count > 0 else { return false }
        let raw = UnsafeRawPointer(base)
        if utf8.count < 8 {
            // the bytes in a word of spaces, which need no escaping
            var word: UInt64 = 0x2020_2020_2020_2020
            withUnsafeMutableBytes(of: &word) { $0.baseAddress!.copyMemory(from: raw, byteCount: utf8.count) }
            return hasEscapedByte(word)
        }
        var index = 0
        while index + 8 <= utf8.count {
            if hasEscapedByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        // the last eight bytes, overlapping those already looked at
        return index < utf8.count && hasEscapedByte(raw.loadUnaligned(fromByteOffset: utf8.count - 8, as: UInt64.self))
    }

    /// Whether one of the eight bytes of `word` is below 0x20, `"` or `\`.
    @inline(__always)
    private static func hasEscapedByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        // a byte below 0x20, or one that is zero after the xor with '"' or with '\'
        let below = (word &- ones &* 0x20) & ~word
        let quote = word ^ (ones &* 0x22), slash = word ^ (ones &* 0x5C)
        let equal = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)
        return (below | equal) & highs != 0
    }

    private mutating func writeString(_ string: String) {
        let text = unique()
        string.withUTF8Bytes { utf8 in
            if !Self.needsEscaping(utf8) {
                text.appendQuoted(utf8)
                return
            }
            text.append(UInt8(ascii: "\""))
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "\""): Self.append("\\\"", to: text)
                case UInt8(ascii: "\\"): Self.append("\\\\", to: text)
                case 0x08: Self.append("\\b", to: text)
                case 0x09: Self.append("\\t", to: text)
                case 0x0A: Self.append("\\n", to: text)
                case 0x0C: Self.append("\\f", to: text)
                case 0x0D: Self.append("\\r", to: text)
                case 0x00..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    Self.append("\\u00", to: text)
                    text.append(hex[Int(byte >> 4)])
                    text.append(hex[Int(byte & 0x0F)])
                default:
                    text.append(byte)
                }
            }
            text.append(UInt8(ascii: "\""))
        }
    }

    private static func append(_ literal: StaticString, to text: JSONText) {
        literal.withUTF8Buffer { text.append($0) }
    }
}

/// The bytes a ``JSONWriter`` has written: a growing buffer written to directly, so that a
/// string costs one copy and a bracket one store.
final class JSONText {
    private var base: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes, copied out.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// A buffer of its own with the same bytes.
    func copy() -> JSONText {
        let copy = JSONText(capacity: capacity)
        copy.base.update(from: base, count: count)
        copy.count = count
        return copy
    }

    /// Room for `more` bytes past the end.
    @inline(__always)
    private func reserve(_ more: Int) {
        if count + more > capacity { grow(count + more) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// A compact key that needs no escaping: a comma first when `comma`, `bytes` between
    /// quotes, and a colon.
    @inline(__always)
    func appendKey(_ bytes: UnsafeBufferPointer<UInt8>, comma: Bool) {
        reserve(bytes.count + 4)
        var at = count
        if comma {
            base[at] = UInt8(ascii: ",")
            at += 1
        }
        base[at] = UInt8(ascii: "\"")
        if let source = bytes.baseAddress { (base + at + 1).update(from: source, count: bytes.count) }
        at += bytes.count + 1
        base[at] = UInt8(ascii: "\"")
        base[at + 1] = UInt8(ascii: ":")
        count = at + 2
    }

    /// `bytes` between quotes (bytes that need no escaping).
    @inline(__always)
    func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count + 2)
        base[count] = UInt8(ascii: "\"")
        if let source = bytes.baseAddress { (base + count + 1).update(from: source, count: bytes.count) }
        count += bytes.count + 2
        base[count - 1] = UInt8(ascii: "\"")
    }
}
