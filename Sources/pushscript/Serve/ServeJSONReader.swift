import NotificationModel

/// Reads one serve line's JSON straight into ``JSONValue``, byte by byte.
///
/// Numbers are typed by how they are written, as ``JSONValue/init(jsonData:)`` types them:
/// without a fraction or exponent and within `Int64` an integer, else a float; a number beyond
/// `Double` is refused. Of a repeated key the last value counts. Values nested deeper than
/// ``maximumDepth`` are skipped and reported as ``Failure/tooDeep``, so the rest of the line
/// (its `id`) can still be read; a top-level `id` that was cut so is left out.
struct ServeJSONReader {
    /// The deepest nesting of arrays and objects a line may have.
    static let maximumDepth = 512

    /// Why a line is not a request's JSON.
    enum Failure: Error, Equatable {
        /// Not JSON: what is wrong.
        case invalid(String)
        /// Valid so far, but nested deeper than ``maximumDepth``.
        case tooDeep
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    /// Set when a value was skipped for its depth.
    private(set) var tooDeep = false

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The value of `line`; with `.tooDeep`, the top-level object as far as it could be read
    /// (its too-deep members left out) comes with the failure.
    static func read(_ line: String) -> (JSONValue?, Failure?) {
        var text = line
        return text.withUTF8 { buffer in
            var reader = ServeJSONReader(buffer)
            do {
                reader.skipSpace()
                let value = try reader.value(depth: 0)
                reader.skipSpace()
                guard reader.index == buffer.count else { throw Failure.invalid("unexpected \(reader.describeHere()) after the value") }
                return (value, reader.tooDeep ? .tooDeep : nil)
            } catch let failure as Failure {
                return (nil, failure)
            } catch {
                return (nil, .invalid("unreadable"))
            }
        }
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func describeHere() -> String {
        guard let byte = current else { return "end of line" }
        if byte >= 0x21, byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))' at byte \(index + 1)" }
        return "byte 0x\(String(byte, radix: 16)) at byte \(index + 1)"
    }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ literal: StaticString, _ value: JSONValue) throws -> JSONValue {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw Failure.invalid("unexpected end of line") }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw Failure.invalid("unexpected \(describeHere())")
        }
        index += count
        return value
    }

    private mutating func value(depth: Int) throws -> JSONValue {
        guard let byte = current else { throw Failure.invalid("unexpected end of line") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth < Self.maximumDepth else {
                try skipNested()
                tooDeep = true
                return .null
            }
            return byte == UInt8(ascii: "{") ? try object(depth: depth + 1) : try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw Failure.invalid("unexpected \(describeHere())")
        }
    }

    private mutating func object(depth: Int) throws -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw Failure.invalid("expected a key in quotes, found \(describeHere())") }
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw Failure.invalid("expected ':' after a key, found \(describeHere())") }
            index += 1
            skipSpace()
            if depth == 1, key == "id" {
                // An id with a part skipped for its depth cannot be answered under.
                let before = tooDeep
                tooDeep = false
                let id = try value(depth: depth)
                members[key] = tooDeep ? nil : id
                tooDeep = tooDeep || before
            } else {
                members[key] = try value(depth: depth)
            }
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default: throw Failure.invalid("expected ',' or '}' in an object, found \(describeHere())")
            }
        }
    }

    private mutating func array(depth: Int) throws -> JSONValue {
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try value(depth: depth))
            skipSpace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default: throw Failure.invalid("expected ',' or ']' in an array, found \(describeHere())")
            }
        }
    }

    /// Skips a too-deep array or object: brackets balanced, strings skipped whole.
    private mutating func skipNested() throws {
        var open = 0
        while let byte = current {
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["): open += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                open -= 1
                if open == 0 {
                    index += 1
                    return
                }
            case UInt8(ascii: "\""):
                _ = try string()
                continue
            default: break
            }
            index += 1
        }
        throw Failure.invalid("unexpected end of line")
    }

    private mutating func string() throws -> String {
        index += 1
        let start = index
        // The common case: no escapes.
        while let byte = current, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") {
            guard byte >= 0x20 else { throw Failure.invalid("a control character in a string at byte \(index + 1)") }
            index += 1
        }
        guard let stop = current else { throw Failure.invalid("unexpected end of line in a string") }
        if stop == UInt8(ascii: "\"") {
            let text = try utf8(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            index += 1
            return text
        }
        var scratch = Array(bytes[start..<index])
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try scratch.withUnsafeBufferPointer { try utf8($0) }
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { throw Failure.invalid("unexpected end of line in a string") }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escaped)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"): scratch.append(contentsOf: try unicodeEscape())
                default: throw Failure.invalid("invalid escape '\\\(Character(Unicode.Scalar(escaped)))' at byte \(index - 1)")
                }
            default:
                guard byte >= 0x20 else { throw Failure.invalid("a control character in a string at byte \(index + 1)") }
                scratch.append(byte)
                index += 1
            }
        }
        throw Failure.invalid("unexpected end of line in a string")
    }

    private func utf8(_ buffer: UnsafeBufferPointer<UInt8>) throws -> String {
        guard let text = String(validating: buffer, as: UTF8.self) else { throw Failure.invalid("a string is not valid UTF-8") }
        return text
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw Failure.invalid("unexpected end of line in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Failure.invalid("invalid \\u escape at byte \(index + 1)")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func unicodeEscape() throws -> [UInt8] {
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
            guard index + 6 <= bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw Failure.invalid("a lone surrogate in a \\u escape at byte \(index)")
            }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw Failure.invalid("a lone surrogate in a \\u escape at byte \(index)") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(code) {
            throw Failure.invalid("a lone surrogate in a \\u escape at byte \(index)")
        }
        guard let scalar = Unicode.Scalar(code) else { throw Failure.invalid("invalid \\u escape at byte \(index)") }
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func number() throws -> JSONValue {
        let start = index
        var integral = true
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw Failure.invalid("a number needs digits at byte \(index + 1)")
        }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard skipDigits() > 0 else { throw Failure.invalid("a number needs digits after '.' at byte \(index + 1)") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            integral = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard skipDigits() > 0 else { throw Failure.invalid("a number needs digits in its exponent at byte \(index + 1)") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text), double.isFinite else { throw Failure.invalid("number \(text) is out of range") }
        return .number(double)
    }

    @discardableResult
    private mutating func skipDigits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }
}
