import Foundation
import NotificationModel
import ScriptTesting

/// `pushscript lint PAYLOAD...`: checks payloads against SPEC section 3.
enum LintCommand: Command {
    static let name = "lint"
    static let summary = "check payloads against the APNs and iOS rules"
    static let description = """
        usage: pushscript lint PAYLOAD...

        Checks each payload (.json, or .apns by its extension) as APNs and iOS would: its
        size, its aps dictionary and the types of its keys, "mutable-content": 1, and plain
        http:// URLs anywhere in it. Prints one line per finding on standard output:
          FILE: error: message
          FILE: warning: message
        A last line on standard error sums up: '3 files, no findings' or '2 files, 1 error,
        1 warning'.
        Exit status: 0 no errors (warnings allowed), 1 an error was found, 2 a file cannot
        be read (named on standard error).
        """
    static let options: [Option] = []

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        guard !a.positionals.isEmpty else {
            throw UsageError("pushscript lint: give at least one payload file; run 'pushscript lint --help'")
        }
        var summary = FindingSummary(files: a.positionals.count)
        for path in a.positionals {
            guard let data = FileManager.default.contents(atPath: path) else {
                printError("pushscript lint: cannot read \(path); check the path")
                summary.unreadable += 1
                continue
            }
            let findings = PayloadLinter.lint(data: data, isAPNS: PayloadFile.isAPNS(path))
            for finding in findings {
                print("\(path): \(finding.severity.rawValue): \(finding.message)")
                if finding.severity == .error { summary.errors += 1 } else { summary.warnings += 1 }
            }
        }
        fflush(nil)
        printError(summary.line)
        return summary.exitStatus
    }
}
