import Foundation
import ScriptTesting
import Synchronization

/// `pushscript test PATH... [--filter TEXT]`: runs fixtures.
enum TestCommand: Command {
    static let name = "test"
    static let summary = "run the fixtures under the paths"
    static let description = """
        usage: pushscript test PATH... [--filter TEXT] [--verbose] [--state DIR --trust KEY.pub...]

        Runs every *.fixture.json under the paths: the fixtures of one folder in file-name
        order through one host. Prints PASS or FAIL per fixture, then 'N passed, N failed'.
        A FAIL line is followed by the fixture's file, why the script fell back (if it did)
        and what differed; with --verbose, also the fixture's whole result, logs included.
        With --state and --trust, a fixture's script is the baseline and the bundle version
        installed in DIR for its app runs when there is one (the deliveries are not counted
        and probation is not judged; the store stays per folder).
        Exit status: 0 all passed, 1 a fixture failed, 2 a fixture file is malformed.
        """
    static let state = Option("--state", "DIR", help: "with --trust: the state folder bundles are installed into")
    static let options = [filter, verbose, state, HostOptions.trust]

    /// `--filter`, which `watch` takes too.
    static let filter = Option("--filter", "TEXT", help: "only the fixtures whose name or path contains TEXT")
    /// `--verbose`, which `watch` takes too.
    static let verbose = Option.flag("--verbose", help: "after a failing fixture's differences, print its whole result")

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        guard !a.positionals.isEmpty else {
            throw UsageError("pushscript test: give at least one fixture file or folder; run 'pushscript test --help'")
        }
        let folders: [FixtureFolder]
        do { folders = try FixtureDiscovery.folders(under: a.positionals) } catch {
            throw UsageError("pushscript test: \(error.path): \(error.problem)")
        }
        var runner = FixtureRunner(filter: a.value(filter))
        runner.verbose = a.flag(verbose)
        if a.value(state) != nil, a.all(HostOptions.trust).isEmpty {
            throw UsageError("pushscript test: --state needs --trust KEY.pub, the key whose installed versions the fixtures run against")
        }
        runner.installed = try HostOptions.installedScripts(a, command: name, baseline: .none, recording: false) { event in
            printError(HostOptions.message(for: event, command: "test"))
        }
        let malformed = Mutex<[String]>([])
        let summary = await runner.run(folders) { result in
            print(result.report)
            if result.state == .malformed { malformed.withLock { $0.append(result.file.path) } }
        }
        // Standard error names the malformed files once more, without repeating the problems
        // (their ERROR lines say them), just before the closing line.
        let files = malformed.withLock { $0 }
        if !files.isEmpty {
            fflush(nil)
            let noun = files.count == 1 ? "fixture file is" : "fixture files are"
            printError("pushscript test: \(files.count) \(noun) malformed (\(files.joined(separator: ", "))); the ERROR lines say what to fix")
        }
        print(summary.line)
        return ExitStatus(rawValue: summary.exitStatus) ?? .usageError
    }
}
