import Foundation

extension JSONValue {
    /// Reads JSON text (UTF-8) with Foundation's `JSONSerialization`.
    ///
    /// Any value is accepted at the top, not only containers. Numbers are typed by how they are
    /// written: without a fraction or exponent and within `Int64` they become ``integer(_:)``;
    /// everything else becomes ``number(_:)``, including integers beyond `Int64` (as Lua reads
    /// such numerals). Foundation stores numerals of more than 17 characters as decimals, which
    /// keep the value but not its spelling; their spelling is read from the text, so
    /// `1.0000000019902598e+18` stays a ``number(_:)`` (only when one text spells the same long
    /// value both ways are both read as ``integer(_:)``). Numbers beyond `Double` (`1e400`) are
    /// refused.
    ///
    /// - Throws: ``JSONError`` starting `not valid JSON`.
    public init(jsonData data: Data) throws(JSONError) {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw JSONError("not valid JSON: \(Self.reason(of: error))")
        }
        self = try JSONValue(foundationObject: object, longNumerals: LongNumerals(scanning: data))
    }

    /// Reads JSON text given as a string; see ``init(jsonData:)``.
    public init(jsonString string: String) throws(JSONError) {
        try self.init(jsonData: Data(string.utf8))
    }

    /// Converts what `JSONSerialization` returns (`NSNull`, `NSNumber`, `String`, arrays and
    /// dictionaries of them) into a value, typing numbers as ``init(jsonData:)`` describes.
    ///
    /// - Throws: ``JSONError`` naming the Swift type that has no JSON form.
    public init(foundationObject object: Any) throws(JSONError) {
        try self.init(foundationObject: object, longNumerals: nil)
    }

    private init(foundationObject object: Any, longNumerals: LongNumerals?) throws(JSONError) {
        switch object {
        case is NSNull:
            self = .null
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            self = Self.value(of: number, longNumerals: longNumerals)
        case let array as [Any]:
            var values: [JSONValue] = []
            values.reserveCapacity(array.count)
            for element in array {
                values.append(try JSONValue(foundationObject: element, longNumerals: longNumerals))
            }
            self = .array(values)
        case let dictionary as [String: Any]:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(dictionary.count)
            for (key, element) in dictionary {
                members[key] = try JSONValue(foundationObject: element, longNumerals: longNumerals)
            }
            self = .object(members)
        default:
            throw JSONError("not valid JSON: a \(type(of: object)) has no JSON form")
        }
    }

    /// The class Foundation uses for booleans (`__NSCFBoolean`), found without CoreFoundation.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func value(of number: NSNumber, longNumerals: LongNumerals?) -> JSONValue {
        if ObjectIdentifier(type(of: number)) == booleanClass {
            return .bool(number.boolValue)
        }
        if let decimal = number as? NSDecimalNumber {
            // Decimal's description spells the exact digits; Double(String) rounds them
            // correctly, where NSDecimalNumber.doubleValue does not (0.30000000000000004).
            let text = decimal.decimalValue.description
            if let integer = Int64(text), longNumerals?.isFloat(text) != true {
                return .integer(integer)
            }
            return .number(Double(text) ?? decimal.doubleValue)
        }
        switch String(cString: number.objCType) {
        case "c", "s", "i", "l", "q":
            return .integer(number.int64Value)
        case "C", "S", "I", "L", "Q":
            let unsigned = number.uint64Value
            if let integer = Int64(exactly: unsigned) {
                return .integer(integer)
            }
            return .number(Double(unsigned))
        default:
            return .number(number.doubleValue)
        }
    }

    private static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String ?? nsError.localizedDescription
        var line = detail.split(whereSeparator: \.isNewline).joined(separator: " ")
        while line.hasSuffix(".") { line.removeLast() }
        guard let first = line.first else { return "unreadable" }
        return first.lowercased() + line.dropFirst()
    }
}
