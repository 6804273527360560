import LuaSandbox
import NotificationModel

/// Why a Lua value is not JSON-shaped.
struct ConversionError: Error {
    let message: String
}

/// Lua values and JSON values, both ways.
enum ValueConversion {
    /// JSON to Lua: objects and arrays become tables (an empty array stays an array when it
    /// comes back), null becomes `json.null`, integers stay integers.
    static func lua(_ value: JSONValue) -> LuaValue {
        switch value {
        case .null: return .null
        case .bool(let b): return .boolean(b)
        case .integer(let i): return .integer(i)
        case .number(let d): return .number(d)
        case .string(let s): return .text(s)
        case .array(let a): return .table(LuaTable(array: a.map(lua)))
        case .object(let o): return .table(LuaTable(pairs: o.map { LuaTablePair(key: .text($0.key), value: lua($0.value)) }))
        }
    }

    /// JSON object to a Lua table.
    static func lua(_ object: [String: JSONValue]) -> LuaValue { lua(.object(object)) }

    /// Lua to JSON, naming the path of what does not fit (`userInfo.x is a function`). An
    /// empty table is an empty object unless it came from a JSON array. Nil is refused.
    static func json(_ value: LuaValue, path: String) throws(ConversionError) -> JSONValue {
        switch value {
        case .nil: throw ConversionError(message: "\(path) is nil")
        case .boolean(let b): return .bool(b)
        case .integer(let i): return .integer(i)
        case .number(let d):
            guard d.isFinite else { throw ConversionError(message: "\(path) must be a finite number") }
            return .number(d)
        case .string(let s):
            guard let text = s.utf8String else { throw ConversionError(message: "\(path) must be valid UTF-8") }
            return .string(text)
        case .null: return .null
        case .table(let t):
            if t.isArray {
                var out: [JSONValue] = []
                out.reserveCapacity(t.elements.count)
                for (i, element) in t.elements.enumerated() { out.append(try json(element, path: "\(path)[\(i + 1)]")) }
                return .array(out)
            }
            var out: [String: JSONValue] = [:]
            for pair in t.pairs {
                guard case .string(let key) = pair.key else {
                    throw ConversionError(message: "\(path) has a \(pair.key.typeName) key; JSON objects take string keys")
                }
                guard let name = key.utf8String else { throw ConversionError(message: "\(path) has a key that is not valid UTF-8") }
                out[name] = try json(pair.value, path: path.isEmpty ? name : "\(path).\(name)")
            }
            return .object(out)
        case .cycle: throw ConversionError(message: "\(path) contains itself (a cycle)")
        case .tooDeep: throw ConversionError(message: "\(path) is nested too deeply")
        case .unsupported(let type): throw ConversionError(message: "\(path) is a \(type)")
        case .object, .function: throw ConversionError(message: "\(path) is a \(value.typeName)")
        case .readOnly(_, let inner), .lockedCopy(let inner): return try json(inner, path: path)
        }
    }

    /// Lua to JSON where nil means "unset" (content fields).
    static func optionalJSON(_ value: LuaValue, path: String) throws(ConversionError) -> JSONValue? {
        if case .nil = value { return nil }
        return try json(value, path: path)
    }
}
