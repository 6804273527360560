import Foundation
import NotificationModel
import ScriptHost

/// How one fixture went.
public struct FixtureOutcome: Sendable {
    /// The fixture.
    public let fixture: Fixture
    /// What differed; empty when it passed.
    public let mismatches: [Mismatch]
    /// The result it was matched against.
    public let result: JSONValue
    /// The result itself, when the request was delivered (not when its payload was refused):
    /// what the verbose report prints, in the result's own key order.
    let delivered: DeliveryResult?

    /// Whether the result matched.
    public var passed: Bool { mismatches.isEmpty }

    /// `PASS name`, or `FAIL name`, an indented line naming the fixture file, why the script
    /// fell back (when it did: `reason: error: path/rules.lua:12: message`), and one indented
    /// line per difference (path, expected, actual).
    public var report: String { report(verbose: false) }

    /// ``report``; `verbose` adds, for a failing fixture, its whole result after the
    /// differences: `  result:` and the result JSON as `run` prints it (logs included),
    /// indented by four spaces.
    public func report(verbose: Bool) -> String {
        guard !passed else { return "PASS \(fixture.name)" }
        var lines = ["FAIL \(fixture.name)", "  in \(fixture.file.path)"]
        if let why = reasonLine { lines.append("  \(why)") }
        lines += mismatches.map { "  \($0)" }
        if verbose {
            let text = delivered.map { String(decoding: $0.prettyJSONBytes(newline: false), as: UTF8.self) } ?? (try? result.jsonString(prettyPrinted: true))
            let json = text ?? "(the result cannot be written as JSON)"
            lines.append("  result:")
            lines += json.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// `reason: KIND: MESSAGE` when the result fell back, with the script's file name in the
    /// message (`rules.lua:12:`) written as the script's path, so that an editor can open it.
    var reasonLine: String? {
        guard case .object(let reason)? = result.objectValue?["reason"], let kind = reason["kind"]?.stringValue else { return nil }
        let message = reason["message"]?.stringValue ?? ""
        return "reason: \(kind): \(Self.withPath(message, script: fixture.script))"
    }

    /// `message` with `NAME:LINE:` (NAME the script's file name) written as `PATH:LINE:`, the
    /// path relative to the working directory when under it.
    static func withPath(_ message: String, script: URL) -> String {
        let name = script.lastPathComponent + ":"
        let base = FileManager.default.currentDirectoryPath + "/"
        let path = script.path.hasPrefix(base) ? String(script.path.dropFirst(base.count)) : script.path
        var out = ""
        var rest = Substring(message)
        while let range = rest.range(of: name) {
            let before = rest[..<range.lowerBound]
            let startsWord = before.last.map { !($0.isLetter || $0.isNumber || $0 == "/" || $0 == "." || $0 == "_" || $0 == "-") } ?? true
            out += before
            out += startsWord && rest[range.upperBound...].first?.isNumber == true ? path + ":" : name
            rest = rest[range.upperBound...]
        }
        return out + rest
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
