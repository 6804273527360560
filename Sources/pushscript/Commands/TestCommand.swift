import Foundation
import ScriptTesting
import Synchronization

/// `pushscript test PATH... [--filter TEXT]`: runs fixtures.
enum TestCommand: Command {
    static let name = "test"
    static let summary = "run the fixtures under the paths"
    static let usage = """
        usage: pushscript test PATH... [--filter TEXT]

        Runs every *.fixture.json under the paths: the fixtures of one folder in file-name
        order through one host. Prints PASS or FAIL per fixture, then 'N passed, N failed'.
        Exit status: 0 all passed, 1 a fixture failed, 2 a fixture file is malformed.

        options:
          --filter TEXT         only the fixtures whose name or path contains TEXT
          --help                this help
        """
    static let options: [OptionSpec] = [.value("--filter")]

    static func run(_ a: ParsedArguments) async throws -> Int32 {
        guard !a.positionals.isEmpty else {
            throw UsageError("pushscript test: give at least one fixture file or folder; run 'pushscript test --help'")
        }
        let folders: [FixtureFolder]
        do { folders = try FixtureDiscovery.folders(under: a.positionals) } catch {
            throw UsageError("pushscript test: \(error.path): \(error.problem)")
        }
        let runner = FixtureRunner(filter: a.value("--filter"))
        let malformed = Mutex<[String]>([])
        let summary = await runner.run(folders) { result in
            print(result.report)
            if result.state == .malformed { malformed.withLock { $0.append(result.report) } }
        }
        // Malformed files again on standard error, just before the closing line, which stays
        // last on standard output.
        for report in malformed.withLock({ $0 }) {
            printError("pushscript test: \(report.dropFirst("ERROR ".count))")
        }
        print(summary.line)
        return summary.exitStatus
    }
}
