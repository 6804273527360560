/// Why a payload is refused, as APNs and iOS would refuse it.
public struct PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule the payload broke.
    public enum Kind: Sendable, Hashable {
        /// The data is not JSON text.
        case invalidJSON
        /// The JSON is not an object.
        case notAnObject
        /// The compact JSON is larger than ``Payload/maximumSize``.
        case tooLarge
        /// There is no `aps` dictionary.
        case missingAPS
        /// A known key holds a value of the wrong type or range.
        case invalidValue
    }

    /// The rule broken.
    public let kind: Kind
    /// A one-line, lower-case message naming the key and what it takes, e.g.
    /// `aps.badge must be an integer >= 0` or `payload too large: 5012 bytes, APNs allows 4096`.
    public let message: String

    /// Creates an error of a kind with its message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
