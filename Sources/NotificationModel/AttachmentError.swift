/// Why a file cannot be attached, or why attachment options are refused.
public struct AttachmentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of rule was broken.
    public enum Kind: Sendable, Hashable {
        /// The file's type is not one iOS attaches (message starts `unsupported type`).
        case unsupportedType
        /// The file is larger than its kind allows (message starts `too large`).
        case tooLarge
        /// An option, or the size or URL, has the wrong type or range.
        case invalidValue
    }

    /// The rule broken.
    public let kind: Kind
    /// A one-line, lower-case message naming what is wrong and what is allowed.
    public let message: String

    /// Creates an error of a kind with its message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
