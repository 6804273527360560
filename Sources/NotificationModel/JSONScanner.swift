/// The project's one reader of JSON text: byte by byte, as strictly as RFC 8259 has it, into
/// values that a ``JSONBuilder`` makes.
///
/// Payload, fixture and state files (``JSONValue/init(jsonData:)``), `serve` lines and the
/// script's `json.decode` all read through it, so they accept the same texts, type numbers the
/// same way and word their errors from one vocabulary (``JSONReadError``):
///
/// - One value, any kind (not only containers), with nothing but whitespace (space, tab, line
///   feed, carriage return) around it. No trailing commas, comments, single quotes, `NaN`.
/// - Numbers are typed by how they are written, as Lua reads numerals: without a fraction or
///   exponent and within `Int64`, ``JSONBuilder/integer(_:)``; anything else, integers beyond
///   `Int64` included, ``JSONBuilder/number(_:)``, rounded correctly. A number beyond `Double`
///   (`1e400`) is refused; one below its precision (`1e-400`) is 0.
/// - Strings must be UTF-8, without control characters; escapes are resolved (`\u0000`
///   included) and a `\u` escape of half a surrogate pair is refused.
/// - Arrays and objects nest at most `maximumDepth` levels. Recursion goes no deeper, so the
///   limit is also what keeps a deep text from exhausting the stack.
/// - Of an object's repeated key the builder decides; every builder here keeps the last value.
///
/// The scanner is generic and `@inlinable`, so that every reader gets it specialized for its
/// builder: `json.decode` in the script host builds Lua values at the speed a reader written
/// for them alone had.
public enum JSONScanner {
    /// Values read between two calls of ``JSONBuilder/shouldStop()``.
    public static let checkInterval = 4096

    /// Reads `text`, which must hold one JSON value, into `builder`.
    ///
    /// - Parameters:
    ///   - maximumDepth: the deepest nesting of arrays and objects; deeper is
    ///     ``JSONReadError/Problem/tooDeep(limit:)``.
    ///   - allowingByteOrderMark: whether a UTF-8 byte order mark may start the text (as some
    ///     editors save files).
    @inlinable
    public static func read<Builder: JSONBuilder>(
        _ text: UnsafeBufferPointer<UInt8>, into builder: inout Builder, maximumDepth: Int, allowingByteOrderMark: Bool = false
    ) throws(JSONReadError) -> Builder.Value {
        var scan = JSONScan(text, builder: builder, maximumDepth: maximumDepth, skipsTooDeep: false)
        defer { builder = scan.builder }
        if allowingByteOrderMark { scan.skipByteOrderMark() }
        return try scan.document()
    }

    /// Reads `text` as ``read(_:into:maximumDepth:allowingByteOrderMark:)`` does, but reads on
    /// past an array or object nested deeper than `maximumDepth` instead of stopping there, so
    /// that the rest of the text is still read: the too-deep part has its brackets balanced and
    /// its strings read, and is built as ``JSONBuilder/null()``; a member of the top-level
    /// object that held one is left out. `serve` reads its lines so, to answer a line that
    /// nests too deeply under its `id`.
    ///
    /// - Returns: the value, and whether some part of it was too deep.
    @inlinable
    public static func readSkippingTooDeep<Builder: JSONBuilder>(
        _ text: UnsafeBufferPointer<UInt8>, into builder: inout Builder, maximumDepth: Int
    ) throws(JSONReadError) -> (value: Builder.Value, skippedTooDeep: Bool) {
        var scan = JSONScan(text, builder: builder, maximumDepth: maximumDepth, skipsTooDeep: true)
        defer { builder = scan.builder }
        let value = try scan.document()
        return (value, scan.skipped > 0)
    }
}

/// One read in progress: the text, where the scanner is in it, and the builder.
@usableFromInline
struct JSONScan<Builder: JSONBuilder> {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0
    @usableFromInline var builder: Builder
    @usableFromInline let maximumDepth: Int
    @usableFromInline let skipsTooDeep: Bool
    /// The arrays and objects open around the scanner.
    @usableFromInline var depth = 0
    /// Values begun, for ``JSONBuilder/shouldStop()``.
    @usableFromInline var values = 0
    /// Too-deep parts skipped (``JSONScanner/readSkippingTooDeep(_:into:maximumDepth:)``).
    @usableFromInline var skipped = 0
    /// Whitespace bytes skipped between tokens so far, for ``JSONBuilder/measured(_:sentBytes:)``.
    @usableFromInline var spaces = 0
    /// The bytes of a string with escapes, resolved; reused from string to string.
    @usableFromInline var scratch: [UInt8] = []

    @inlinable
    init(_ bytes: UnsafeBufferPointer<UInt8>, builder: Builder, maximumDepth: Int, skipsTooDeep: Bool) {
        self.bytes = bytes
        self.builder = builder
        self.maximumDepth = maximumDepth
        self.skipsTooDeep = skipsTooDeep
    }

    @inlinable
    mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// The whole text: one value, whitespace around it.
    @inlinable
    mutating func document() throws(JSONReadError) -> Builder.Value {
        skipSpace()
        let value = try self.value()
        skipSpace()
        guard index == bytes.count else { throw JSONReadError(.afterValue(found), at: index) }
        return value
    }

    /// What is at the scanner.
    @inlinable
    var found: JSONReadError.Found { index < bytes.count ? .byte(bytes[index]) : .end }

    @inlinable
    mutating func skipSpace() {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { break }
            index &+= 1
        }
        spaces &+= index &- start
    }

    @inlinable
    mutating func value() throws(JSONReadError) -> Builder.Value {
        values &+= 1
        if values % JSONScanner.checkInterval == 0, builder.shouldStop() { throw JSONReadError(.stopped, at: index) }
        guard index < bytes.count else { throw JSONReadError(.unexpected(.end), at: index) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return try string()
        case UInt8(ascii: "t"):
            try literal(0x74_72_75_65, count: 4)  // true
            return builder.bool(true)
        case UInt8(ascii: "f"):
            try literal(0x66_61_6C_73_65, count: 5)  // false
            return builder.bool(false)
        case UInt8(ascii: "n"):
            try literal(0x6E_75_6C_6C, count: 4)  // null
            return builder.null()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw JSONReadError(.unexpected(found), at: index)
        }
    }

    /// Moves past `true`, `false` or `null`, given as its ASCII bytes in one integer.
    @inlinable
    mutating func literal(_ word: UInt64, count: Int) throws(JSONReadError) {
        guard index &+ count <= bytes.count else { throw JSONReadError(.unexpected(.end), at: bytes.count) }
        var read: UInt64 = 0
        for offset in 0..<count { read = read << 8 | UInt64(bytes[index &+ offset]) }
        guard read == word else { throw JSONReadError(.unexpected(found), at: index) }
        index &+= count
    }

    /// Opens the array or object at the scanner; false when it was too deep and skipped.
    @inlinable
    mutating func enter() throws(JSONReadError) -> Bool {
        guard depth < maximumDepth else {
            guard skipsTooDeep else { throw JSONReadError(.tooDeep(limit: maximumDepth), at: index) }
            try skipNested()
            skipped &+= 1
            return false
        }
        depth &+= 1
        index &+= 1
        skipSpace()
        return true
    }

    /// Moves past `close` right after an opening bracket: an empty container.
    @inlinable
    mutating func closes(_ close: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == close else { return false }
        index &+= 1
        depth &-= 1
        return true
    }

    /// After a value in a container: moves past `,` and true, or past `close` and false.
    @inlinable
    mutating func next(_ close: UInt8) throws(JSONReadError) -> Bool {
        skipSpace()
        guard index < bytes.count else { throw JSONReadError(.expectedCommaOrClose(close: close, .end), at: index) }
        let byte = bytes[index]
        if byte == close {
            index &+= 1
            depth &-= 1
            return false
        }
        guard byte == UInt8(ascii: ",") else { throw JSONReadError(.expectedCommaOrClose(close: close, found), at: index) }
        let comma = index
        index &+= 1
        skipSpace()
        if index < bytes.count, bytes[index] == close { throw JSONReadError(.trailingComma(close: close), at: comma) }
        return true
    }

    @inlinable
    mutating func array() throws(JSONReadError) -> Builder.Value {
        guard try enter() else { return builder.null() }
        var elements = builder.beginArray()
        if closes(UInt8(ascii: "]")) { return builder.endArray(elements) }
        repeat {
            let element = try value()
            builder.append(element, to: &elements)
        } while try next(UInt8(ascii: "]"))
        return builder.endArray(elements)
    }

    @inlinable
    mutating func object() throws(JSONReadError) -> Builder.Value {
        guard try enter() else { return builder.null() }
        var members = builder.beginObject()
        if closes(UInt8(ascii: "}")) { return builder.endObject(members) }
        let topLevel = depth == 1
        repeat {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw JSONReadError(.expectedKey(found), at: index) }
            let key = try self.key()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw JSONReadError(.expectedColon(found), at: index) }
            index &+= 1
            skipSpace()
            let skippedBefore = skipped
            let start = index, spacesBefore = spaces
            let member = try value()
            if topLevel { builder.measured(key, sentBytes: (index &- start) &- (spaces &- spacesBefore)) }
            // A member of the top-level object that held a too-deep part is left out.
            if !topLevel || skipped == skippedBefore {
                builder.add(member, for: key, to: &members)
            }
        } while try next(UInt8(ascii: "}"))
        return builder.endObject(members)
    }

    /// Moves past a too-deep array or object: brackets balanced, strings read whole.
    @inlinable
    mutating func skipNested() throws(JSONReadError) {
        var open = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): open &+= 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                open &-= 1
                if open == 0 {
                    index &+= 1
                    return
                }
            case UInt8(ascii: "\""):
                _ = try scanString()
                continue
            default: break
            }
            index &+= 1
        }
        throw JSONReadError(.unexpected(.end), at: index)
    }
}
