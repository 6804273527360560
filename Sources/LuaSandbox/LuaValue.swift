/// A Lua value copied across the bridge between the sandbox and the host.
///
/// Values are copied, never shared: a table that crosses becomes a ``LuaTable`` on the Swift
/// side and a new Lua table on the Lua side. Strings are bytes (Lua strings need not be
/// UTF-8). Integers and floats stay apart, as Lua 5.4 keeps them.
public enum LuaValue: Sendable, Hashable {
    /// Lua `nil`.
    case `nil`
    /// A Lua boolean.
    case boolean(Bool)
    /// A Lua integer (64-bit).
    case integer(Int64)
    /// A Lua float.
    case number(Double)
    /// A Lua string: arbitrary bytes.
    case string(LuaString)
    /// A Lua table.
    case table(LuaTable)
    /// The sandbox's JSON null (`json.null` in scripts).
    case null
    /// A host function, as a value a script can call (host to Lua only).
    case function(HostFunctionID)
    /// A chunk compiled in this sandbox (host to Lua only): the script gets its function, whose
    /// `_ENV` is the environment of the run in progress, as ``LuaSandbox/run(_:in:)`` sets it.
    case chunk(CompiledChunk)
    /// A host object made by ``LuaSandbox/makeObject(of:id:)``: its host-side id (Lua to host).
    case object(Int32)
    /// A value the bridge cannot carry: a Lua function, thread or foreign userdata (Lua to
    /// host only). The associated value is its Lua type name.
    case unsupported(String)
    /// A table met again inside itself (Lua to host only).
    case cycle
    /// A table nested deeper than the bridge follows (Lua to host only).
    case tooDeep
    /// A read-only view of a table (host to Lua only): writes raise "`name` is read-only",
    /// `setmetatable` refuses it, and tables inside it are read-only too.
    indirect case readOnly(name: String, LuaValue)
    /// A table the script gets as a copy it may change, whose metatable is locked so that
    /// `setmetatable` refuses it (host to Lua only).
    indirect case lockedCopy(LuaValue)

    /// A string value from Swift text.
    public static func text(_ string: String) -> LuaValue { .string(LuaString(string)) }

    /// The Lua type name of the value, as `type()` would say it.
    public var typeName: String {
        switch self {
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .table, .readOnly, .lockedCopy: return "table"
        case .null, .object: return "userdata"
        case .function, .chunk: return "function"
        case .unsupported(let name): return name
        case .cycle, .tooDeep: return "table"
        }
    }

    /// The string as UTF-8 text, when it is a string of valid UTF-8.
    public var stringValue: String? {
        if case .string(let s) = self { return s.utf8String }
        return nil
    }

    /// The table, when the value is one.
    public var tableValue: LuaTable? {
        if case .table(let t) = self { return t }
        return nil
    }

    /// The value as an integer: a Lua integer, or a float with an integral value that fits.
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .number(let d):
            guard d.isFinite, d == d.rounded(), d >= -9.223372036854775808e18, d < 9.223372036854775808e18
            else { return nil }
            return Int64(d)
        default: return nil
        }
    }

    /// The value as a float, when it is a number.
    public var numberValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }

    /// Whether the value is `nil`.
    public var isNil: Bool {
        if case .nil = self { return true }
        return false
    }
}

/// A Lua string: bytes, which need not be UTF-8.
public struct LuaString: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The bytes of the string.
    public var bytes: [UInt8]

    /// A string of these bytes.
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// A string of the UTF-8 bytes of `string`.
    public init(_ string: String) { self.bytes = Array(string.utf8) }

    /// A string literal's UTF-8 bytes.
    public init(stringLiteral value: String) { self.init(value) }

    /// The text, when the bytes are valid UTF-8.
    public var utf8String: String? { String(validating: bytes, as: UTF8.self) }

    /// The text, with invalid UTF-8 repaired (for messages).
    public var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// A Lua table copied across the bridge.
///
/// A table whose keys are exactly `1...n` comes across as an array (``elements``); any other
/// table as key-value pairs (``pairs``). An empty table is an array when it was made from a
/// JSON array and otherwise has no elements and no pairs.
public struct LuaTable: Sendable, Hashable {
    /// The values at keys `1...n`, when the table is a sequence.
    public var elements: [LuaValue]
    /// The entries of a table that is not a sequence, in no particular order.
    public var pairs: [LuaTablePair]
    /// Whether the table is a sequence (JSON array), including an empty one known to be.
    public var isArray: Bool

    /// An array table.
    public init(array: [LuaValue]) {
        self.elements = array
        self.pairs = []
        self.isArray = true
    }

    /// A table of key-value pairs.
    public init(pairs: [LuaTablePair]) {
        self.elements = []
        self.pairs = pairs
        self.isArray = false
    }

    /// A table with string keys.
    public init(fields: [(String, LuaValue)]) {
        self.init(pairs: fields.map { LuaTablePair(key: .text($0.0), value: $0.1) })
    }

    /// The value at a string key (`nil` when absent).
    public subscript(key: String) -> LuaValue {
        let k = LuaValue.text(key)
        return pairs.first { $0.key == k }?.value ?? .nil
    }

    /// The number of entries.
    public var count: Int { isArray ? elements.count : pairs.count }
}

/// One entry of a ``LuaTable``.
public struct LuaTablePair: Sendable, Hashable {
    /// The key.
    public var key: LuaValue
    /// The value.
    public var value: LuaValue

    /// An entry.
    public init(key: LuaValue, value: LuaValue) {
        self.key = key
        self.value = value
    }
}

/// The identity of a host function registered in a ``LuaSandbox``.
public struct HostFunctionID: Sendable, Hashable {
    /// The number the bridge knows the function by.
    public let rawValue: Int32

    /// An id from its number.
    public init(rawValue: Int32) { self.rawValue = rawValue }
}
