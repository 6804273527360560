/// Why a value cannot be assigned to a content field.
public struct ContentFieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of assignment was refused.
    public enum Kind: Sendable, Hashable {
        /// The content has no field of that name.
        case unknownField
        /// The field cannot be assigned.
        case readOnly
        /// The value has the wrong type or range.
        case invalidValue
    }

    /// The kind of refusal.
    public let kind: Kind
    /// The field's name as given.
    public let field: String
    /// A one-line, lower-case message naming the field and what it takes, e.g.
    /// `badge must be an integer >= 0 or nil` or `content has no field 'titel'`.
    public let message: String
    /// Whether the message is the field's whole requirement (`<field> must be` followed by
    /// ``ContentField/requirement``), so that an API that speaks another language (the script
    /// API's Lua) can say the requirement in its own words.
    public let unmetRequirement: Bool

    /// Creates an error about a field.
    public init(_ kind: Kind, field: String, message: String, unmetRequirement: Bool = false) {
        self.kind = kind
        self.field = field
        self.message = message
        self.unmetRequirement = unmetRequirement
    }

    /// The message.
    public var description: String { message }
}
