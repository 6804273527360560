/// Why JSON text could not be read, or a value could not be written as JSON.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A one-line, lower-case message that says what is wrong.
    public let message: String

    /// Creates an error with its message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
