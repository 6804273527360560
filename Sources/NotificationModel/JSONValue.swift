/// A JSON value as a payload, a script or a result holds it.
///
/// Numbers keep the distinction Lua makes: a JSON number written without a fraction or an
/// exponent is an ``integer(_:)``, any other is a ``number(_:)``. Equality compares numbers by
/// value, so `.integer(2) == .number(2.0)`, as `2 == 2.0` in Lua and in JSON itself; match
/// the case to tell them apart.
public enum JSONValue: Sendable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or an exponent that fits a 64-bit integer.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; its keys are unordered until written (see ``JSONKeyOrder``).
    case object([String: JSONValue])
}

extension JSONValue {
    /// The name of the value's kind for messages: `null`, `boolean`, `integer`, `number`,
    /// `string`, `array` or `object`.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .integer: "integer"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Whether the value is JSON `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The string, if the value is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean, if the value is a boolean (numbers are not booleans).
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The value as an integer: an ``integer(_:)``, or a ``number(_:)`` with an integral
    /// value that fits `Int64` (`2.0` is `2`); nil for anything else.
    public var integerValue: Int64? {
        switch self {
        case .integer(let integer):
            return integer
        case .number(let double):
            // Int64(exactly:) refuses fractions, non-finite values and values out of range.
            return Int64(exactly: double)
        default:
            return nil
        }
    }

    /// The value as a double, for either kind of number; nil for anything else.
    public var doubleValue: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .number(let double): double
        default: nil
        }
    }

    /// The elements, if the value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The members, if the value is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The member named `key` of an object; nil when absent or when the value is no object.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index` of an array; nil when out of range or when the value is no array.
    public subscript(index: Int) -> JSONValue? {
        guard let array = arrayValue, array.indices.contains(index) else { return nil }
        return array[index]
    }

    /// How deeply arrays and objects nest: 0 for a scalar, 1 for a container of scalars
    /// (or an empty one), one more for each level below.
    public var depth: Int {
        switch self {
        case .array(let array):
            1 + (array.map(\.depth).max() ?? 0)
        case .object(let object):
            1 + (object.values.map(\.depth).max() ?? 0)
        default:
            0
        }
    }
}
