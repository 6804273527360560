import Foundation

/// How one fixture file ran: its report and how it ended.
public struct FixtureFileResult: Sendable, Hashable {
    /// How a fixture file ended.
    public enum State: Sendable, Hashable {
        /// Its result matched.
        case passed
        /// Its result did not match.
        case failed
        /// The file could not be used (`ERROR path: problem`).
        case malformed
    }

    /// The fixture file (standardized).
    public let file: URL
    /// `PASS name`, `FAIL name` and what differed, or `ERROR path: problem`.
    public let report: String
    /// How it ended.
    public let state: State

    /// A result.
    public init(file: URL, report: String, state: State) {
        self.file = file
        self.report = report
        self.state = state
    }
}
