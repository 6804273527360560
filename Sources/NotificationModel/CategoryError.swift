/// Why a category, as a fixture, a `--categories` file or a script gives it, is refused.
public struct CategoryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A one-line, lower-case message that names the path of the problem and what it takes,
    /// e.g. `actions[2].options: unknown option 'foo'; use foreground, destructive or authenticationRequired`.
    public let message: String

    /// Creates an error with its message.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
