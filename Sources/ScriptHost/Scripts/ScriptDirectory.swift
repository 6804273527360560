import Foundation
import LuaSandbox
import Synchronization

/// A folder of scripts, one `<bundle-id>.lua` per app, kept in service while they change: the
/// script source of a long-running host (`pushscript serve`, an embedding app).
///
/// Every lookup stats the app's file (size, times to the nanosecond, inode). When it changed,
/// the new version is read and compiled in a sandbox on a Lua thread and, if it compiles, is
/// swapped in for this and every later request. A version that does not compile leaves the
/// last good one in service and is reported once; with no good version yet, requests get
/// ``ScriptLookup/failed(_:)`` (reason `load`). An app without a file gets
/// ``ScriptLookup/missing`` (reason `no-script`); deleting a file takes its app's script out
/// of service.
///
/// The check compiles only: a chunk that fails while it runs, or that defines no
/// `didReceive`, is found by the request that runs it (reason `load`), as with any script.
///
/// ```swift
/// let scripts = ScriptDirectory(URL(fileURLWithPath: "rules")) { event in log(event) }
/// let result = await host.deliver(request, from: scripts)
/// ```
public final class ScriptDirectory: Sendable {
    /// The folder.
    public let url: URL
    /// The memory limit compiling a script counts against, in bytes.
    public let memoryLimit: Int
    /// The CPU time a compile check may use (at most ten seconds): the host's per-request
    /// budget, since a script that cannot compile within it cannot run.
    public let cpuTime: Duration
    /// The folder's path ending in `/`.
    private let folderPath: String

    let executor: SandboxExecutor
    let reporter: @Sendable (Event) -> Void
    let compilers = SandboxPool<LuaSandbox>(maxIdle: 2) { () throws(SandboxError) in
        try LuaSandbox(memoryLimit: 64 << 20)
    }
    let state = Mutex(State())

    /// A directory of scripts.
    ///
    /// - Parameters:
    ///   - url: The folder holding `<bundle-id>.lua` files. It need not exist yet.
    ///   - memoryLimit: The memory limit compiling counts against (the host's limit).
    ///   - cpuTime: The CPU time compiling may use (the host's per-request budget; at most 10 s).
    ///   - report: Told when a version of a script goes into service and when one is rejected;
    ///     called on any thread, once per version.
    public convenience init(
        _ url: URL, memoryLimit: Int = ScriptLimits.default.memoryBytes, cpuTime: Duration = ScriptLimits.default.cpuTime,
        report: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.init(url, memoryLimit: memoryLimit, cpuTime: cpuTime, executor: SandboxExecutor(), report: report)
    }

    /// A directory of scripts whose compile checks run on the Lua threads of `executor`.
    package init(
        _ url: URL, memoryLimit: Int, cpuTime: Duration = ScriptLimits.default.cpuTime, executor: SandboxExecutor,
        report: @escaping @Sendable (Event) -> Void
    ) {
        self.url = url
        self.cpuTime = min(cpuTime, Self.compileDeadline)
        let folder = url.path
        folderPath = folder.hasSuffix("/") ? folder : folder + "/"
        self.memoryLimit = memoryLimit
        self.executor = executor
        self.reporter = report
    }

    /// The file of an app's script: `<app>.lua` in the folder; nil when `app` cannot name a
    /// file there (empty, starting with `.`, or holding `/` or NUL).
    public func fileURL(for app: String) -> URL? {
        filePath(for: app).map { URL(fileURLWithPath: $0, isDirectory: false) }
    }

    /// The path of ``fileURL(for:)``, made without a URL: what every lookup stats.
    func filePath(for app: String) -> String? {
        let utf8 = app.utf8
        guard let first = utf8.first, first != UInt8(ascii: "."),
              !utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 }) else { return nil }
        return folderPath + app + ".lua"
    }

    /// The script in service for `app`, reloading its file first when it changed.
    ///
    /// Concurrent lookups of one changed file share one reload. Costs one `stat` when nothing
    /// changed.
    public func script(for app: String?) async -> ScriptLookup {
        await script(for: app, arrivedAt: nil)
    }

    /// ``script(for:)`` for a request that arrived at `arrivedAt`: when the file was looked at
    /// since then and found unchanged, it is not looked at again. A change made before the
    /// request arrived was made before that look, so it is seen all the same; `serve` looks at
    /// a file about once per read of its input, not once per request. Nil: the file is looked
    /// at now.
    package func script(for app: String?, arrivedAt: ContinuousClock.Instant?) async -> ScriptLookup {
        switch lookupStep(for: app, arrivedAt: arrivedAt) {
        case .ready(let lookup): return lookup
        case .wait(let task, _): return await task.value
        }
    }

    /// What a lookup of `app`'s script does: answer at once, or wait for the reload of its
    /// file (started here, or in flight already), named. A request that `arrivedAt` a moment
    /// the file has been looked at since is answered without a look (see
    /// ``script(for:arrivedAt:)``).
    func lookupStep(for app: String?, arrivedAt: ContinuousClock.Instant? = nil) -> Step {
        guard let app else { return .ready(.missing) }
        // (An app with an entry has a name that can be a file in the folder.)
        // (one look into the table under the lock: lanes serving other apps wait for it)
        if let arrivedAt, let known = state.withLock({ s -> ScriptLookup? in
            guard let entry = s.entries[app], let seen = entry.observedAt, seen >= arrivedAt, entry.settled,
                entry.pending == nil
            else { return nil }
            return entry.lookup
        }) {
            return .ready(known)
        }
        guard let path = filePath(for: app) else { return .ready(.missing) }
        // Taken before the look: the look sees every change made before this moment.
        let looked = ContinuousClock.now
        let observed: FileStamp?
        switch ScriptFileSystem.observe(path) {
        case .absent:
            state.withLock { _ = $0.entries.removeValue(forKey: app) }
            return .ready(.missing)
        case .unreadable:
            observed = nil
        case .file(let stamp):
            observed = stamp
        }
        return state.withLock { s -> Step in
            if let observed, var entry = s.entries[app], entry.stamp == observed, entry.settled {
                if entry.observedAt.map({ $0 < looked }) ?? true {
                    entry.observedAt = looked
                    s.entries[app] = entry
                }
                return .ready(entry.lookup)
            }
            let name = app + ".lua"
            if let pending = s.entries[app]?.pending, pending.stamp == observed {
                return .wait(pending.task, name)
            }
            s.sequence += 1
            let sequence = s.sequence
            var entry = s.entries[app] ?? Entry(id: sequence)
            let file = URL(fileURLWithPath: path, isDirectory: false)
            let reload = Reload(app: app, file: file, entryID: entry.id, sequence: sequence, known: entry.examined, version: entry.version)
            let task = Task { await self.perform(reload) }
            entry.pending = Pending(stamp: observed, sequence: sequence, task: task)
            s.entries[app] = entry
            return .wait(task, name)
        }
    }

    // MARK: State

    /// What the directory knows of its apps.
    struct State {
        var entries: [String: Entry] = [:]
        var sequence = 0
    }

    /// One app's script: the version in view and what requests get for it.
    struct Entry {
        /// Tells this entry from one made after the file was deleted and made again.
        let id: Int
        /// The stamp of the version examined last; nil before the first or when it was unreadable.
        var stamp: FileStamp? { didSet { observedAt = nil } }
        /// When a look at the file (begun then) last found ``stamp``; nil since it changed.
        var observedAt: ContinuousClock.Instant?
        /// Whether a change to the file must change ``stamp``; when not, the file is read again.
        var settled = false
        /// The bytes of the version examined last.
        var examined: [UInt8]?
        /// Counts changes of ``examined``.
        var version = 0
        /// What requests get.
        var lookup: ScriptLookup = .missing
        /// The last version that compiled.
        var lastGood: Script?
        /// The message of the rejected version in view, reported once.
        var rejection: String?
        /// The sequence number of the reload that made this state.
        var applied = 0
        /// The reload in flight.
        var pending: Pending?

        init(id: Int) { self.id = id }
    }

    /// A reload in flight, which lookups of the same stamp wait for.
    struct Pending {
        let stamp: FileStamp?
        let sequence: Int
        let task: Task<ScriptLookup, Never>
    }

    /// What a lookup does next.
    enum Step {
        /// Answer with this.
        case ready(ScriptLookup)
        /// Wait for the reload of the file named.
        case wait(Task<ScriptLookup, Never>, String)
    }
}
