import NotificationModel

/// How one fixture went.
public struct FixtureOutcome: Sendable {
    /// The fixture.
    public let fixture: Fixture
    /// What differed; empty when it passed.
    public let mismatches: [Mismatch]
    /// The result it was matched against.
    public let result: JSONValue

    /// Whether the result matched.
    public var passed: Bool { mismatches.isEmpty }

    /// `PASS name`, or `FAIL name`, an indented line naming the fixture file, and one
    /// indented line per difference (path, expected, actual).
    public var report: String {
        guard !passed else { return "PASS \(fixture.name)" }
        return (["FAIL \(fixture.name)", "  in \(fixture.file.path)"] + mismatches.map { "  \($0)" }).joined(separator: "\n")
    }
}

/// The totals of a run of fixtures.
public struct FixtureSummary: Sendable, Hashable {
    /// Fixtures whose result matched.
    public var passed = 0
    /// Fixtures whose result did not match.
    public var failed = 0
    /// Fixture files that could not be used.
    public var malformed = 0

    /// The closing line: `N passed, N failed`.
    public var line: String { "\(passed) passed, \(failed + malformed) failed" }

    /// 0 when all passed, 2 when a fixture file was malformed, 1 when one failed.
    public var exitStatus: Int32 { malformed > 0 ? 2 : (failed > 0 ? 1 : 0) }

    /// Counts one fixture file that ended in `state`.
    public mutating func count(_ state: FixtureFileResult.State) {
        switch state {
        case .passed: passed += 1
        case .failed: failed += 1
        case .malformed: malformed += 1
        }
    }
}
