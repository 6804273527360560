import Foundation
import ScriptHost

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

extension FixtureRunner {
    /// Runs the fixtures of one folder through one host, in file-name order, as ``run(_:report:)``
    /// runs each folder, and returns each file's result in that order. Fixtures the filter
    /// leaves out have none.
    public func runFiles(_ folder: FixtureFolder) async -> [FixtureFileResult] {
        var configuration = self.configuration
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-watch-\(UUID().uuidString)", isDirectory: true)
        configuration.attachmentDirectory = scratch
        defer { try? FileManager.default.removeItem(at: scratch) }
        let host = ScriptHost(configuration: configuration)
        var results: [FixtureFileResult] = []
        for file in folder.files {
            let fixture: Fixture
            do {
                fixture = try Fixture(contentsOf: file)
            } catch {
                results.append(FixtureFileResult(file: file, report: "ERROR \(error.description)", state: .malformed))
                continue
            }
            if let filter, !fixture.name.contains(filter), !file.path.contains(filter) { continue }
            do {
                let outcome = try await run(fixture, on: host)
                results.append(FixtureFileResult(file: file, report: outcome.report, state: outcome.passed ? .passed : .failed))
            } catch {
                results.append(FixtureFileResult(file: file, report: "ERROR \(error.description)", state: .malformed))
            }
        }
        return results
    }
}
