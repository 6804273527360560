import Foundation
import ScriptHost
import ScriptTesting

/// `pushscript check SCRIPT...`: compiles scripts and reports missing handlers and globals
/// the sandbox does not have.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "compile scripts, report missing handlers and unknown globals"
    static let usage = """
        usage: pushscript check SCRIPT...

        Compiles each script as the host does (without running it) and reports, one line each:
          FILE:LINE: message                 it does not compile (Lua's message)
          FILE: error: no didReceive function
          FILE:LINE: warning: read of unknown global 'NAME'
          FILE:LINE: warning: read of unknown field 'MODULE.NAME'
          FILE:LINE: warning: write of global 'NAME' (make it local)
          FILE:LINE: warning: content has no field 'NAME'   (on a handler's content)
        The known globals are those of a fresh script environment of the host; a script may
        set only its handlers, didReceive and bestAttempt.
        A last line on standard error sums up: '3 files, no findings' or '2 files, 1 error,
        1 warning'.
        Exit status: 0 no errors (warnings allowed), 1 an error was found, 2 a file cannot be
        read (named on standard error).

        options:
          --help                this help
        """
    static let options: [OptionSpec] = []

    static func run(_ a: ParsedArguments) async throws -> Int32 {
        guard !a.positionals.isEmpty else {
            throw UsageError("pushscript check: give at least one script file; run 'pushscript check --help'")
        }
        let checker: ScriptChecker
        do { checker = try await ScriptChecker.forHost() } catch {
            printError("pushscript check: cannot read the sandbox's globals: \(error.message)")
            return 2
        }
        var summary = FindingSummary(files: a.positionals.count)
        for path in a.positionals {
            let script: Script
            do { script = try Script(contentsOf: URL(fileURLWithPath: path)) } catch {
                printError("pushscript check: \(error.message); check the path")
                summary.unreadable += 1
                continue
            }
            for finding in await checker.check(script) {
                print(finding.line(file: path))
                if finding.severity == .error { summary.errors += 1 } else { summary.warnings += 1 }
            }
        }
        fflush(nil)
        printError(summary.line)
        return summary.unreadable > 0 ? 2 : (summary.errors > 0 ? 1 : 0)
    }
}
