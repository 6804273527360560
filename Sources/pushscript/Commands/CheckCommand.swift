import Foundation
import ScriptHost
import ScriptTesting

/// `pushscript check SCRIPT...`: compiles scripts and reports missing handlers and globals
/// the sandbox does not have.
enum CheckCommand: Command {
    static let name = "check"
    static let summary = "compile scripts, report missing handlers and unknown globals"
    static let description = """
        usage: pushscript check SCRIPT... [--lib DIR]

        Compiles each script as the host does (without running it) and reports, one line each:
          FILE:LINE: message                 it does not compile (Lua's message)
          FILE: error: no didReceive function
          FILE:LINE: warning: read of unknown global 'NAME'
          FILE:LINE: warning: read of unknown field 'MODULE.NAME'
          FILE:LINE: warning: read of unknown field 'LOCAL.NAME' of module 'pushscript.NAME'
          FILE:LINE: warning: write of global 'NAME' (make it local)
          FILE:LINE: warning: 'NAME' is not a handler, so it is never called; did you mean ...?
          FILE:LINE: warning: CALL takes its options as named keys (...), not a list like {...}
          FILE:LINE: warning: content has no field 'NAME'   (on a handler's content)
          FILE:LINE: error: module 'NAME' not found: ...
        A name near a known one gets "; did you mean 'NAME'?". The known globals are those of
        a fresh script environment of the host; a script may set only its handlers,
        didReceive, bestAttempt and afterDelivery. A local holding a bundled module
        (local p = require "pushscript.providers") has the module's fields. Modules required
        by a literal name (require "lib.util") are found as the host finds them and checked
        too, under their own file names; they need no didReceive.
        A last line on standard error sums up: '3 files, no findings' or '2 files, 1 error,
        1 warning'.
        Exit status: 0 no errors (warnings allowed), 1 an error was found, 2 a file cannot be
        read (named on standard error).
        """
    static let options = [HostOptions.lib.withHelp("look for required modules in DIR after the script's folder (repeatable)")]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        guard !a.positionals.isEmpty else {
            throw UsageError("pushscript check: give at least one script file; run 'pushscript check --help'")
        }
        let checker: ScriptChecker
        do { checker = try await ScriptChecker.forHost() } catch {
            printError("pushscript check: cannot read the sandbox's globals: \(error.message)")
            return .usageError
        }
        let libraries = try HostOptions.libraryDirectories(a, command: name)
        var checked: Set<String> = []
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
                summary.count(finding)
            }
            let required = checker.modules(requiredBy: script, libraries: libraries)
            for (file, finding) in required.problems {
                print(finding.line(file: file.map(Self.shown) ?? path))
                summary.count(finding)
            }
            for file in required.files where checked.insert(file.standardizedFileURL.path).inserted {
                summary.files += 1
                let module: Script
                do { module = try Script(contentsOf: file) } catch {
                    printError("pushscript check: \(error.message)")
                    summary.unreadable += 1
                    continue
                }
                for finding in await checker.checkModule(module) {
                    print(finding.line(file: Self.shown(file)))
                    summary.count(finding)
                }
            }
        }
        fflush(nil)
        printError(summary.line)
        return summary.exitStatus
    }

    /// A module file's path as printed: relative to the current folder when it is inside it.
    static func shown(_ file: URL) -> String {
        let path = file.standardizedFileURL.path
        let current = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}

extension FindingSummary {
    /// Counts a script finding as an error or a warning.
    mutating func count(_ finding: ScriptFinding) {
        if finding.severity == .error { errors += 1 } else { warnings += 1 }
    }
}
