extension JSONValue: Equatable {
    /// Structural equality in which numbers compare by value: `.integer(2) == .number(2.0)`.
    /// `NaN` equals nothing, as in Swift and Lua.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case (.bool(let left), .bool(let right)):
            return left == right
        case (.integer(let left), .integer(let right)):
            return left == right
        case (.number(let left), .number(let right)):
            return left == right
        case (.integer(let integer), .number(let double)), (.number(let double), .integer(let integer)):
            // Comparing through Int64(exactly:) avoids the rounding of Double(integer).
            return Int64(exactly: double) == integer
        case (.string(let left), .string(let right)):
            return left == right
        case (.array(let left), .array(let right)):
            return left == right
        case (.object(let left), .object(let right)):
            return left == right
        default:
            return false
        }
    }
}

extension JSONValue: Hashable {
    /// Hashes consistently with ``==(_:_:)``: an integral number hashes as the integer it equals.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let bool):
            hasher.combine(1)
            hasher.combine(bool)
        case .integer(let integer):
            hasher.combine(2)
            hasher.combine(integer)
        case .number(let double):
            if let integer = Int64(exactly: double) {
                hasher.combine(2)
                hasher.combine(integer)
            } else {
                hasher.combine(3)
                hasher.combine(double)
            }
        case .string(let string):
            hasher.combine(4)
            hasher.combine(string)
        case .array(let array):
            hasher.combine(5)
            hasher.combine(array)
        case .object(let object):
            hasher.combine(6)
            hasher.combine(object)
        }
    }
}
