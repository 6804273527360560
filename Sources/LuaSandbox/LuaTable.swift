/// A value a ``LuaTable`` holds: ``LuaInput`` (going into Lua) or ``LuaOutput`` (coming out).
/// Both have the data cases — nil, booleans, integers, floats, strings, tables and `json.null`;
/// this names the two a table's own API needs.
package protocol LuaTableValue: Sendable, Hashable {
    /// Lua `nil`.
    static var `nil`: Self { get }
    /// A Lua string.
    static func string(_ string: LuaString) -> Self
}

extension LuaTableValue {
    /// A string value from Swift text.
    package static func text(_ string: String) -> Self { .string(LuaString(string)) }
}

/// A Lua string: bytes, which need not be UTF-8.
package struct LuaString: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The bytes of the string.
    package var bytes: [UInt8]

    /// A string of these bytes.
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// A string of the UTF-8 bytes of `string`.
    package init(_ string: String) { self.bytes = Array(string.utf8) }

    /// A string literal's UTF-8 bytes.
    package init(stringLiteral value: String) { self.init(value) }

    /// The text, when the bytes are valid UTF-8 (``UTF8Text``).
    package var utf8String: String? { UTF8Text.string(bytes) }

    /// The text, with invalid UTF-8 repaired (for messages).
    package var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// A Lua table copied across the bridge, holding values of one direction: ``LuaInput`` going
/// into Lua, ``LuaOutput`` coming out.
///
/// A table whose keys are exactly `1...n` comes across as an array (``elements``); any other
/// table as key-value pairs (``pairs``). An empty table is an array when it was made from a
/// JSON array and otherwise has no elements and no pairs.
package struct LuaTable<Value: LuaTableValue>: Sendable, Hashable {
    /// The values at keys `1...n`, when the table is a sequence.
    package var elements: [Value]
    /// The entries of a table that is not a sequence, in no particular order.
    package var pairs: [LuaTablePair<Value>]
    /// Whether the table is a sequence (JSON array), including an empty one known to be.
    package var isArray: Bool

    /// An array table.
    package init(array: [Value]) {
        self.elements = array
        self.pairs = []
        self.isArray = true
    }

    /// A table of key-value pairs.
    package init(pairs: [LuaTablePair<Value>]) {
        self.elements = []
        self.pairs = pairs
        self.isArray = false
    }

    /// A table with string keys.
    package init(fields: [(String, Value)]) {
        self.init(pairs: fields.map { LuaTablePair(key: .text($0.0), value: $0.1) })
    }

    /// The value at a string key (`nil` when absent).
    package subscript(key: String) -> Value {
        let k = Value.text(key)
        return pairs.first { $0.key == k }?.value ?? .nil
    }

    /// The same table with each key and value transformed.
    package func map<Other>(_ transform: (Value) -> Other) -> LuaTable<Other> {
        var table = LuaTable<Other>(pairs: pairs.map { LuaTablePair(key: transform($0.key), value: transform($0.value)) })
        table.elements = elements.map(transform)
        table.isArray = isArray
        return table
    }

    /// The number of entries.
    package var count: Int { isArray ? elements.count : pairs.count }
}

/// One entry of a ``LuaTable``.
package struct LuaTablePair<Value: LuaTableValue>: Sendable, Hashable {
    /// The key.
    package var key: Value
    /// The value.
    package var value: Value

    /// An entry.
    package init(key: Value, value: Value) {
        self.key = key
        self.value = value
    }
}

/// The identity of a host function registered in a ``LuaSandbox``.
package struct HostFunctionID: Sendable, Hashable {
    /// The number the bridge knows the function by.
    package let rawValue: Int32

    /// An id from its number.
    package init(rawValue: Int32) { self.rawValue = rawValue }
}
