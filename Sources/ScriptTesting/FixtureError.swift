/// A fixture file that cannot be used: it names the file and what is wrong with it.
public struct FixtureError: Error, Sendable, CustomStringConvertible {
    /// The fixture file's path.
    public let path: String
    /// What is wrong.
    public let problem: String

    /// An error about a fixture file.
    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    /// `path: problem`.
    public var description: String { "\(path): \(problem)" }
}
