import Foundation
import ScriptTesting

/// `pushscript watch PATH... [--filter TEXT]`: runs fixtures, and again whenever what they
/// use changes.
enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "rerun fixtures whenever a script or fixture changes"
    static let description = """
        usage: pushscript watch PATH... [--filter TEXT] [--verbose]

        Runs every *.fixture.json under the paths, as 'pushscript test' does, then watches the
        fixture files, the scripts, payload files and media files they name, and the folders.
        When one changes, the fixtures it touches run again (with the rest of their folder,
        which shares one host), and a new fixture file runs when it appears. Each round prints
        the touched fixtures' PASS/FAIL lines and then the whole suite's 'N passed, N failed'.
        A script that breaks only fails its fixtures; watching goes on until Ctrl-C.
        With --verbose, a failing fixture's whole result follows its differences.
        """
    static let options = [TestCommand.filter, TestCommand.verbose]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        guard !a.positionals.isEmpty else {
            throw UsageError("pushscript watch: give at least one fixture file or folder; run 'pushscript watch --help'")
        }
        do { _ = try FixtureDiscovery.folders(under: a.positionals) } catch {
            throw UsageError("pushscript watch: \(error.path): \(error.problem)")
        }
        let watcher: any DirectoryWatching
        do { watcher = try PlatformDirectoryWatcher.make() } catch {
            printError("pushscript watch: \(error.message); use 'pushscript test'")
            return .usageError
        }
        printError("pushscript watch: watching \(a.positionals.joined(separator: " ")); press Ctrl-C to stop")
        var runner = FixtureRunner(filter: a.value(TestCommand.filter))
        runner.verbose = a.flag(TestCommand.verbose)
        let loop = FixtureWatcher(paths: a.positionals, runner: runner, watcher: watcher)
        await loop.run(output: { print($0) }, flush: { fflush(nil) })
        return .success
    }
}
