/// One problem `lint` finds in a payload. Writing it as `FILE: error: message` is the
/// command line's job.
public struct LintFinding: Sendable, Hashable, CustomStringConvertible {
    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable, CaseIterable {
        /// The payload is refused, or iOS never runs the extension for it.
        case error
        /// iOS may not do what the payload expects.
        case warning
    }

    /// How bad it is.
    public let severity: Severity
    /// A one-line, lower-case message naming the key and what is wrong.
    public let message: String

    /// Creates a finding.
    public init(_ severity: Severity, _ message: String) {
        self.severity = severity
        self.message = message
    }

    /// `error: message` or `warning: message`.
    public var description: String {
        "\(severity.rawValue): \(message)"
    }
}
