import Foundation

extension JSONValue {
    /// The value as JSON text in UTF-8.
    ///
    /// Compact by default (no spaces or newlines); `prettyPrinted` indents by two spaces for
    /// people. Strings escape `"`, `\` and the control characters below U+0020 (`/` is left
    /// alone); integers are written without a fraction; other numbers as the shortest text that
    /// reads back as the same double, with `.0` kept on integral ones (`2.0`) so they stay floats.
    ///
    /// - Throws: ``JSONError`` for a non-finite number, naming where it is.
    public func jsonData(keyOrder: JSONKeyOrder = .sorted, prettyPrinted: Bool = false) throws(JSONError) -> Data {
        Data(try jsonBytes(keyOrder: keyOrder, prettyPrinted: prettyPrinted))
    }

    /// The value as JSON text; see ``jsonData(keyOrder:prettyPrinted:)``.
    public func jsonString(keyOrder: JSONKeyOrder = .sorted, prettyPrinted: Bool = false) throws(JSONError) -> String {
        String(decoding: try jsonBytes(keyOrder: keyOrder, prettyPrinted: prettyPrinted), as: UTF8.self)
    }

    /// The value as JSON text in UTF-8 bytes; see ``jsonData(keyOrder:prettyPrinted:)``.
    public func jsonBytes(keyOrder: JSONKeyOrder = .sorted, prettyPrinted: Bool = false) throws(JSONError) -> [UInt8] {
        var writer = JSONWriter(prettyPrinted: prettyPrinted)
        try writer.write(self, order: keyOrder)
        return writer.bytes
    }
}

/// Writes JSON text into a byte buffer, as ``JSONValue/jsonBytes(keyOrder:prettyPrinted:)``
/// does: whole values, or an object member by member, so that a type can write itself in its
/// own order without first making a ``JSONValue`` of itself.
///
/// ```swift
/// var writer = JSONWriter()
/// writer.beginObject()
/// writer.key("outcome")
/// writer.write(string: "completed")
/// writer.key("content")
/// try writer.write(content.jsonValue, order: NotificationContent.jsonKeyOrder)
/// writer.endObject()
/// let text = writer.bytes
/// ```
public struct JSONWriter {
    /// Whether the text is indented for people (two spaces a level).
    public let prettyPrinted: Bool
    /// The text written so far, in UTF-8.
    public private(set) var bytes: [UInt8] = []
    private var depth = 0
    /// The keys of the objects begun with ``beginObject()`` and not yet ended, for the one
    /// error there is (a non-finite number); nested values say where they are only when it
    /// happens.
    private var keys: [String] = []
    /// For each object begun with ``beginObject()``: whether a member has been written.
    private var hasMembers: [Bool] = []

    /// A writer with an empty text.
    public init(prettyPrinted: Bool = false) {
        self.prettyPrinted = prettyPrinted
        bytes.reserveCapacity(1024)
    }

    /// Writes `value`, its objects' keys in `order`.
    ///
    /// - Throws: ``JSONError`` for a non-finite number, naming where it is.
    public mutating func write(_ value: JSONValue, order: JSONKeyOrder = .sorted) throws(JSONError) {
        do throws(NonFiniteNumber) {
            try writeValue(value, order: order)
        } catch {
            let place = JSONPath(keys.map(JSONPath.Component.key) + error.place.reversed())
            let at = place.components.isEmpty ? "" : " at \(place)"
            throw JSONError("cannot write \(error.value) as JSON\(at); JSON numbers must be finite")
        }
    }

    /// Writes a string.
    public mutating func write(string: String) {
        writeString(string)
    }

    /// Writes an integer.
    public mutating func write(integer: Int64) {
        writeInteger(integer)
    }

    /// Begins an object; write its members with ``key(_:)`` and a value each, then
    /// ``endObject()``.
    public mutating func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        hasMembers.append(false)
        keys.append("")
    }

    /// Writes the key of the open object's next member; its value comes next.
    public mutating func key(_ key: String) {
        if hasMembers[hasMembers.count - 1] { bytes.append(UInt8(ascii: ",")) }
        hasMembers[hasMembers.count - 1] = true
        keys[keys.count - 1] = key
        newline()
        writeString(key)
        append(prettyPrinted ? ": " : ":")
    }

    /// Ends the object begun last.
    public mutating func endObject() {
        depth -= 1
        keys.removeLast()
        if hasMembers.removeLast() { newline() }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A number that JSON cannot hold, and where it sits below the value being written
    /// (innermost first).
    private struct NonFiniteNumber: Error {
        let value: Double
        var place: [JSONPath.Component] = []

        /// The same number, placed within `component` of the enclosing value.
        func within(_ component: JSONPath.Component) -> Self {
            var error = self
            error.place.append(component)
            return error
        }
    }

    private mutating func writeValue(_ value: JSONValue, order: JSONKeyOrder) throws(NonFiniteNumber) {
        switch value {
        case .null:
            append("null")
        case .bool(let bool):
            append(bool ? "true" : "false")
        case .integer(let integer):
            writeInteger(integer)
        case .number(let double):
            guard double.isFinite else { throw NonFiniteNumber(value: double) }
            append(Self.text(of: double))
        case .string(let string):
            writeString(string)
        case .array(let array):
            bytes.append(UInt8(ascii: "["))
            guard !array.isEmpty else {
                bytes.append(UInt8(ascii: "]"))
                return
            }
            depth += 1
            for (index, element) in array.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                newline()
                do throws(NonFiniteNumber) {
                    try writeValue(element, order: order)
                } catch {
                    throw error.within(.index(index))
                }
            }
            depth -= 1
            newline()
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            bytes.append(UInt8(ascii: "{"))
            guard !object.isEmpty else {
                bytes.append(UInt8(ascii: "}"))
                return
            }
            depth += 1
            var written = 0
            if order.first.isEmpty {
                for (key, value) in object.sorted(by: { JSONKeyOrder.precedes($0.key, $1.key) }) {
                    try writeMember(key, value, order: order, written: &written)
                }
            } else {
                for key in order.first {
                    if let value = object[key] { try writeMember(key, value, order: order, written: &written) }
                }
                if written < object.count {
                    let rest = object.filter { !order.preferred.contains($0.key) }
                    for (key, value) in rest.sorted(by: { JSONKeyOrder.precedes($0.key, $1.key) }) {
                        try writeMember(key, value, order: order, written: &written)
                    }
                }
            }
            depth -= 1
            newline()
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `"key":value` as the object's next member.
    private mutating func writeMember(_ key: String, _ value: JSONValue, order: JSONKeyOrder, written: inout Int) throws(NonFiniteNumber) {
        if written > 0 { bytes.append(UInt8(ascii: ",")) }
        written += 1
        newline()
        writeString(key)
        append(prettyPrinted ? ": " : ":")
        do throws(NonFiniteNumber) {
            try writeValue(value, order: order.child(key))
        } catch {
            throw error.within(.key(key))
        }
    }

    /// The shortest text that reads back as `double`, with `.0` on integral values.
    static func text(of double: Double) -> String {
        let text = double.description
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
            return text
        }
        return text + ".0"
    }

    private mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
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
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(UInt8(ascii: "\""))
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
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
                    append("\\u00" + (hex.count == 1 ? "0" + hex : hex))
                default:
                    bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
