/// A value Lua gives the host: the arguments of a host call, what ``LuaSandbox/read(_:)``
/// copies out of the state.
///
/// Values are copied, never shared: a table comes across as a ``LuaTable``. Strings are bytes
/// (Lua strings need not be UTF-8). Integers and floats stay apart, as Lua 5.4 keeps them.
/// Besides data it says what the bridge could not copy; what only the host makes (a host
/// function, a read-only view) goes the other way, as ``LuaInput``.
package enum LuaOutput: LuaTableValue {
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
    /// A Lua table (a read-only view reads as the table it shows).
    case table(LuaTable<LuaOutput>)
    /// The sandbox's JSON null (`json.null` in scripts).
    case null
    /// A host object made by ``LuaSandbox/makeObject(of:id:)``: its host-side id.
    case object(Int32)
    /// A value the bridge cannot carry: a Lua function, thread or foreign userdata. The
    /// associated value is its Lua type name.
    case unsupported(String)
    /// A table met again inside itself.
    case cycle
    /// A table nested deeper than the bridge follows.
    case tooDeep

    /// The Lua type name of the value, as `type()` would say it.
    package var typeName: String {
        switch self {
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .table, .cycle, .tooDeep: return "table"
        case .null, .object: return "userdata"
        case .unsupported(let name): return name
        }
    }

    /// The string as UTF-8 text, when it is a string of valid UTF-8.
    package var stringValue: String? {
        if case .string(let s) = self { return s.utf8String }
        return nil
    }

    /// The table, when the value is one.
    package var tableValue: LuaTable<LuaOutput>? {
        if case .table(let t) = self { return t }
        return nil
    }

    /// The value as an integer: a Lua integer, or a float with an integral value that fits.
    package var integerValue: Int64? {
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
    package var numberValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }

    /// Whether the value is `nil`.
    package var isNil: Bool {
        if case .nil = self { return true }
        return false
    }
}
