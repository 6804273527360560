import CLuaShims

/// Writes a value for ``LuaSandbox/makeValue(writing:)`` part by part, in the bridge's byte
/// format, so that a host with a tree of values of its own (JSON) copies it into the state
/// without making a ``LuaInput`` of it first.
///
/// A table is announced with its count, then that many values (``beginArray(count:)``) or
/// key-value pairs (``beginTable(count:)``) follow:
///
/// ```swift
/// sandbox.makeValue { writer in
///     writer.beginTable(count: 1)
///     writer.write(string: "headline")
///     writer.write(string: "Big news")
/// }
/// ```
public struct LuaValueWriter {
    var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(512)
    }

    /// Writes `nil`.
    public mutating func writeNil() { bytes.append(PSS_TAG_NIL.byte) }

    /// Writes `json.null`.
    public mutating func writeNull() { bytes.append(PSS_TAG_NULL.byte) }

    /// Writes a boolean.
    public mutating func write(boolean: Bool) { bytes.append((boolean ? PSS_TAG_TRUE : PSS_TAG_FALSE).byte) }

    /// Writes an integer.
    public mutating func write(integer: Int64) {
        bytes.append(PSS_TAG_INTEGER.byte)
        withUnsafeBytes(of: integer) { bytes.append(contentsOf: $0) }
    }

    /// Writes a float.
    public mutating func write(number: Double) {
        bytes.append(PSS_TAG_FLOAT.byte)
        withUnsafeBytes(of: number) { bytes.append(contentsOf: $0) }
    }

    /// Writes a string: the UTF-8 bytes of `string`.
    public mutating func write(string: String) {
        var string = string
        string.withUTF8 { utf8 in
            bytes.append(PSS_TAG_STRING.byte)
            withUnsafeBytes(of: UInt32(utf8.count)) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: utf8)
        }
    }

    /// Begins a table made from a list (a JSON array): `count` values follow.
    public mutating func beginArray(count: Int) {
        bytes.append(PSS_TAG_ARRAY.byte)
        withUnsafeBytes(of: UInt32(count)) { bytes.append(contentsOf: $0) }
    }

    /// Begins a table of `count` pairs: a key and a value each follow.
    public mutating func beginTable(count: Int) {
        bytes.append(PSS_TAG_TABLE.byte)
        withUnsafeBytes(of: UInt32(count)) { bytes.append(contentsOf: $0) }
    }
}
