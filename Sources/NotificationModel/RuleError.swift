/// Why a value is refused: which rule it broke, and a one-line, lower-case message naming what
/// is wrong and what is allowed. ``PayloadError`` and ``AttachmentError`` are this with their
/// own rules.
public struct RuleError<Kind: Sendable & Hashable>: Error, Sendable, Hashable, CustomStringConvertible {
    /// The rule broken.
    public let kind: Kind
    /// A one-line, lower-case message naming what is wrong and what is allowed, e.g.
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
