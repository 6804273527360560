import LuaSandbox
import NotificationModel

/// The ``JSONSink`` that writes JSON as a Lua value into a ``LuaValueWriter``: the one way
/// from JSON into Lua. Objects and arrays become tables (an array is written as a list, so an
/// empty one stays an array when it comes back), null becomes `json.null`, integers stay
/// integers. Keys go as the dictionaries hold them: a Lua table keeps no order.
struct LuaJSONSink: JSONSink {
    var writer: LuaValueWriter
    /// The tables begun and not yet ended: where each one's count goes, and the count so far.
    private var open: [(place: Int, count: Int, isArray: Bool)] = []

    init(writer: LuaValueWriter) {
        self.writer = writer
        // room for a payload's usual nesting, so that the stack is allocated once
        open.reserveCapacity(8)
    }

    /// Writes `value` into `writer` as one Lua value.
    static func write(_ value: JSONValue, into writer: inout LuaValueWriter) {
        var sink = LuaJSONSink(writer: LuaValueWriter(capacity: 0))
        swap(&sink.writer, &writer)
        value.write(into: &sink, order: .unordered)
        swap(&sink.writer, &writer)
    }

    mutating func writeNull() {
        element()
        writer.writeNull()
    }

    mutating func write(bool: Bool) {
        element()
        writer.write(boolean: bool)
    }

    mutating func write(integer: Int64) {
        element()
        writer.write(integer: integer)
    }

    mutating func write(number: Double) {
        element()
        writer.write(number: number)
    }

    mutating func write(string: String) {
        element()
        writer.write(string: string)
    }

    /// Writes a string given as its UTF-8 bytes (a reader's, before a `String` is made).
    mutating func write(utf8: UnsafeBufferPointer<UInt8>) {
        element()
        writer.write(bytes: utf8)
    }

    mutating func write(_ value: JSONValue, order: JSONKeyOrder) {
        value.write(into: &self, order: .unordered)
    }

    mutating func beginArray() {
        element()
        open.append((writer.beginArray(), 0, true))
    }

    mutating func endArray() {
        let array = open.removeLast()
        writer.setCount(array.count, at: array.place)
    }

    mutating func beginObject() {
        element()
        open.append((writer.beginTable(), 0, false))
    }

    mutating func key(_ key: String) {
        open[open.count - 1].count += 1
        writer.write(string: key)
    }

    /// An object's key given as its UTF-8 bytes, as ``write(utf8:)`` writes a string.
    mutating func key(utf8: UnsafeBufferPointer<UInt8>) {
        open[open.count - 1].count += 1
        writer.write(bytes: utf8)
    }

    mutating func endObject() {
        let table = open.removeLast()
        writer.setCount(table.count, at: table.place)
    }

    /// The members written so far into the object begun last (its keys), or the elements into
    /// the list begun last; nil when none is open.
    var openCount: Int? { open.last?.count }

    /// Counts a value written into the open list (an object's members are counted by key).
    private mutating func element() {
        let last = open.count - 1
        if last >= 0, open[last].isArray { open[last].count += 1 }
    }
}
