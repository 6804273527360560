import Foundation

/// `pushscript watch`: runs the fixtures under some paths, then reruns the ones a change
/// touches, for as long as the changes come.
///
/// A fixture is touched when its fixture file, its script, its payload file or a media file
/// it names changes, and a new fixture file is run when it appears. Since the fixtures of a
/// folder run through one host (what one registers or stores, the next ones see), a touched
/// fixture's whole folder is run again. Each round reports the touched fixtures, and any other
/// fixture whose result changed with them, then the summary line of the whole suite as it now
/// stands, then flushes. A broken script only makes its fixtures fail: the loop goes on.
public struct FixtureWatcher: Sendable {
    /// The fixture files and folders given.
    public let paths: [String]
    /// What runs the fixtures.
    public let runner: FixtureRunner
    /// What reports changes.
    public let watcher: any DirectoryWatching

    /// A watch loop over `paths`.
    public init(paths: [String], runner: FixtureRunner, watcher: any DirectoryWatching) {
        self.paths = paths
        self.runner = runner
        self.watcher = watcher
    }

    /// Runs every fixture, then reruns on each change until the watcher stops. `output` gets
    /// each line; `flush` is called after each round's summary line.
    public func run(output: @Sendable (String) -> Void, flush: @Sendable () -> Void = {}) async {
        var plan = WatchPlan.discover(paths)
        var results: [String: FixtureFileResult] = [:]
        for folder in plan.folders {
            for result in await runner.runFiles(folder) {
                results[result.file.path] = result
                output(result.report)
            }
        }
        output(Self.summary(results).line)
        flush()
        watcher.watch(plan.directories)

        for await changes in watcher.changes {
            let earlier = plan
            plan = WatchPlan.discover(paths)
            watcher.watch(plan.directories)
            if !plan.directories.isSubset(of: earlier.directories) {
                // Files made in a new folder before its watch was in place are found now.
                plan = WatchPlan.discover(paths)
                watcher.watch(plan.directories)
            }
            let touched = plan.affected(by: changes, since: earlier)
            let removed = earlier.fixtures.subtracting(plan.fixtures)
            guard !touched.isEmpty || !removed.isEmpty else { continue }

            let changed = changes.paths.filter { path in
                plan.dependencies.values.contains { $0.contains(path) } || earlier.dependencies.values.contains { $0.contains(path) }
            }
            output(changes.overflowed ? "changed: (events lost; rerunning everything)" : "changed: \(Self.describe(changed))")
            for file in removed.sorted() {
                results[file] = nil
                output("removed \(file)")
            }
            for folder in plan.folders(holding: touched) {
                for result in await runner.runFiles(folder) {
                    let before = results[result.file.path]
                    results[result.file.path] = result
                    if touched.contains(result.file.path) || before?.state != result.state {
                        output(result.report)
                    }
                }
            }
            output(Self.summary(results).line)
            flush()
        }
    }

    /// The totals of the latest result of every fixture.
    static func summary(_ results: [String: FixtureFileResult]) -> FixtureSummary {
        var summary = FixtureSummary()
        for result in results.values { summary.count(result.state) }
        return summary
    }

    /// The changed paths, relative to the working directory when under it, sorted.
    static func describe(_ paths: Set<String>) -> String {
        let base = FileManager.default.currentDirectoryPath + "/"
        let names = paths.map { $0.hasPrefix(base) ? String($0.dropFirst(base.count)) : $0 }.sorted()
        return names.isEmpty ? "(new fixtures)" : names.joined(separator: ", ")
    }
}
