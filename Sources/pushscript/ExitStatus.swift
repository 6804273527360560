import Foundation

/// How `pushscript` ends (docs/command-line.md gives each command's meaning of these).
enum ExitStatus: Int32, Sendable {
    /// Done: the script completed, every fixture passed, no errors found.
    case success = 0
    /// Done, and something failed: a fixture failed, `check` or `lint` found an error.
    case failuresFound = 1
    /// Nothing done: a usage error, or input that cannot be read or used (a file, a malformed
    /// fixture, a page that cannot be written, a watch that cannot start).
    case usageError = 2
    /// `run` and `preview`: the script did not complete and its fallback was delivered.
    case fallbackDelivered = 3

    /// Ends the process with this status.
    func exit() -> Never {
        Foundation.exit(rawValue)
    }
}
