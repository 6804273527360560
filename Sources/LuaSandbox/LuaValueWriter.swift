import CLuaSandbox

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
package struct LuaValueWriter: Sendable, Hashable {
    var bytes: [UInt8] = []

    /// An empty writer with room for `capacity` bytes, for a value to hand over whole
    /// (``LuaInput/encoded(_:)``).
    package init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    /// Writes `nil`.
    package mutating func writeNil() { tag(PSS_TAG_NIL) }

    /// Writes `json.null`.
    package mutating func writeNull() { tag(PSS_TAG_NULL) }

    /// Writes a boolean.
    package mutating func write(boolean: Bool) { tag(boolean ? PSS_TAG_TRUE : PSS_TAG_FALSE) }

    /// Writes an integer.
    package mutating func write(integer: Int64) {
        tagged(PSS_TAG_INTEGER, integer)
    }

    /// Writes a float.
    package mutating func write(number: Double) {
        tagged(PSS_TAG_FLOAT, number)
    }

    /// Writes a string: the UTF-8 bytes of `string`.
    package mutating func write(string: String) {
        // In place for a native string: no copy of the string, so no reference to count.
        if string.utf8.withContiguousStorageIfAvailable({ write(bytes: $0) }) != nil { return }
        var copy = string
        copy.withUTF8 { write(bytes: $0) }
    }

    /// Writes a string of these bytes (a Lua string need not be UTF-8).
    package mutating func write(bytes string: some Collection<UInt8>) {
        if string.withContiguousStorageIfAvailable({ write(contiguous: $0) }) != nil { return }
        tag(PSS_TAG_STRING)
        raw(UInt32(string.count))
        bytes.append(contentsOf: string)
    }

    /// Writes a string of these bytes, as ``write(bytes:)-(some Collection<UInt8>)`` does,
    /// without going through a generic collection (a reader's buffer, from another module).
    package mutating func write(bytes string: UnsafeBufferPointer<UInt8>) {
        write(contiguous: string)
    }

    /// Writes a string from contiguous bytes: a short one with its tag and length in one
    /// append (each append checks the buffer's capacity and that it is not shared).
    private mutating func write(contiguous string: UnsafeBufferPointer<UInt8>) {
        let count = string.count
        guard count <= Self.shortString, let source = string.baseAddress else {
            tag(PSS_TAG_STRING)
            raw(UInt32(count))
            bytes.append(contentsOf: string)
            return
        }
        withUnsafeTemporaryAllocation(byteCount: Self.shortString + 5, alignment: 1) { buffer in
            let base = buffer.baseAddress!
            base.storeBytes(of: PSS_TAG_STRING.byte, as: UInt8.self)
            base.storeBytes(of: UInt32(count), toByteOffset: 1, as: UInt32.self)
            (base + 5).copyMemory(from: source, byteCount: count)
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count + 5))
        }
    }

    /// The longest string ``write(contiguous:)`` copies beside its tag before appending.
    private static let shortString = 123

    /// Begins a table made from a list (a JSON array): `count` values follow.
    package mutating func beginArray(count: Int) {
        tagged(PSS_TAG_ARRAY, UInt32(count))
    }

    /// Begins a table of `count` pairs: a key and a value each follow.
    package mutating func beginTable(count: Int) {
        tagged(PSS_TAG_TABLE, UInt32(count))
    }

    /// Begins a list whose count is given when it is whole (``setCount(_:at:)`` with the place
    /// returned), for a writer that learns the count as it writes.
    package mutating func beginArray() -> Int {
        let place = bytes.count + 1
        tagged(PSS_TAG_ARRAY, UInt32(0))
        return place
    }

    /// Begins a table of pairs whose count is given when it is whole, as ``beginArray()``.
    package mutating func beginTable() -> Int {
        let place = bytes.count + 1
        tagged(PSS_TAG_TABLE, UInt32(0))
        return place
    }

    /// Writes the count of the list or table begun at `place`.
    package mutating func setCount(_ count: Int, at place: Int) {
        bytes.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(count), toByteOffset: place, as: UInt32.self) }
    }

    /// Writes a tag byte.
    mutating func tag(_ tag: pss_tag) { bytes.append(tag.byte) }

    /// Writes `value`'s bytes in native order.
    mutating func raw<T>(_ value: T) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Writes a tag and `value`'s bytes in native order, in one append.
    @inline(__always)
    mutating func tagged<T: BitwiseCopyable>(_ tag: pss_tag, _ value: T) {
        withUnsafeTemporaryAllocation(byteCount: MemoryLayout<T>.size + 1, alignment: 1) { buffer in
            let base = buffer.baseAddress!
            base.storeBytes(of: tag.byte, as: UInt8.self)
            base.storeBytes(of: value, toByteOffset: 1, as: T.self)
            bytes.append(contentsOf: UnsafeRawBufferPointer(buffer))
        }
    }
}
