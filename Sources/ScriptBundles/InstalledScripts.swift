import Foundation
import ScriptHost
import Synchronization

/// The script source of a host on a device with installed bundles: for each app, the
/// installed version in service when there is one, else the baseline (the app's own script).
///
/// Each lookup stats the app's state file (`DIR/<app>.bundles.json`); when it changed (an
/// install, a revocation, a rollback by another process), it is read again, so the next request
/// after an install uses the new state, and a request never sees half of one: the state file is
/// replaced at once and names only complete version folders. A version is checked again when
/// it is first served in the process (``VersionLoader``); one that fails the check, or that is
/// signed by a key not trusted now, is passed over for the version before it.
///
/// ``record(_:app:)`` counts each delivery for the version that answered (`bundle status`
/// shows the counts) and judges a candidate on probation (``ProbationRule``): rolled back or
/// promoted at once, before the next request. Counts of versions not on probation are written
/// in batches (every 1,000 deliveries or second, by a task of their own, and at ``flush()``),
/// replacing the counts file
/// at once but without waiting for the disk: a power cut may lose the last counts, never a
/// verdict (rollbacks and promotions are flushed to the disk).
///
/// ```swift
/// let installed = InstalledScripts(stateDirectory: appGroup, trust: keys, baseline: .script(baseline))
/// let result = await host.deliver(request, from: installed)
/// ```
public final class InstalledScripts: Sendable {
    /// Where the baseline scripts come from.
    public enum Baseline: Sendable {
        /// A folder of `<app>.lua` scripts.
        case directory(ScriptDirectory)
        /// One script, for every app.
        case script(Script)
        /// None: each lookup gives its own (``script(for:baseline:)``).
        case none
    }

    /// What happens to installed versions while serving, for a log.
    public enum Event: Sendable, Hashable {
        /// A candidate was rolled back: why.
        case rolledBack(app: String, version: Int, reason: String)
        /// A candidate passed probation.
        case promoted(app: String, version: Int)
        /// An installed version cannot be served (a failed check, a key not trusted): why.
        case unusable(app: String, version: Int, message: String)
        /// The app's installed state cannot be read: its baseline is served.
        case unreadableState(app: String, message: String)
        /// Counts could not be written.
        case countsNotWritten(app: String, message: String)
    }

    /// The state folder.
    public let stateDirectory: URL
    /// The keys whose versions are served.
    public let trust: TrustedKeys
    /// The baseline.
    public let baseline: Baseline
    /// Whether deliveries are counted and probation judged (`test` only looks).
    public let recording: Bool
    let crypto: any BundleCrypto
    let report: @Sendable (Event) -> Void
    /// The file operations of rollbacks and promotions.
    package let files: any InstallFileOperations
    let views = Mutex<[String: AppView]>([:])
    /// Held while counts are written.
    let writing = Mutex(())

    /// An installed-scripts source.
    ///
    /// - Parameters:
    ///   - stateDirectory: The state folder bundles are installed into.
    ///   - trust: The keys whose versions are served.
    ///   - baseline: The app's own scripts.
    ///   - recording: Whether to count deliveries and judge probation.
    ///   - report: Told of rollbacks, promotions and versions that cannot be served; any thread.
    public convenience init(
        stateDirectory: URL, trust: TrustedKeys, baseline: Baseline, recording: Bool = true,
        crypto: any BundleCrypto = PlatformCrypto.shared, report: @escaping @Sendable (Event) -> Void = { _ in }
    ) {
        self.init(stateDirectory: stateDirectory, trust: trust, baseline: baseline, recording: recording, crypto: crypto, files: SystemFileOperations(), report: report)
    }

    package init(
        stateDirectory: URL, trust: TrustedKeys, baseline: Baseline, recording: Bool, crypto: any BundleCrypto,
        files: any InstallFileOperations, report: @escaping @Sendable (Event) -> Void
    ) {
        self.stateDirectory = stateDirectory
        self.trust = trust
        self.baseline = baseline
        self.recording = recording
        self.crypto = crypto
        self.files = files
        self.report = report
    }

    deinit { flush() }

    /// The script in service for `app`: the installed version this device takes, else the
    /// baseline's.
    public func script(for app: String?) async -> ScriptLookup {
        await choose(app, baseline: nil).lookup
    }

    /// The script in service for `app`, with `baseline` as the app's own script.
    public func script(for app: String?, baseline: ScriptLookup) async -> ScriptLookup {
        await choose(app, baseline: baseline).lookup
    }

    /// The version in service for `app` (nil for the baseline) as the state stands now.
    public func installedVersion(for app: String) -> Int? {
        served(app)?.version
    }

    // MARK: Lookup

    /// What a lookup chose.
    struct Choice: Sendable {
        let lookup: ScriptLookup
        let served: ServedVersion?
    }

    /// What the source knows of one app.
    struct AppView: Sendable {
        /// The state file's stamp when read; nil when there was none.
        var stamp: FileStamp?
        /// Whether a change of the file must change its stamp; when not, the file is read again.
        var settled = false
        /// The file's bytes when read.
        var bytes: Data?
        /// The state; nil when none or unreadable.
        var state: InstalledState?
        /// Versions loaded, by number.
        var loaded: [Int: ServedVersion] = [:]
        /// Versions that could not be loaded, by number (reported once).
        var unusable: Set<Int> = []
        /// Counts not written yet, by ``AppCounts`` key.
        var pending: [String: DeliveryCounts] = [:]
        var pendingDeliveries = 0
        /// Whether a write of the counts is on its way.
        var writeScheduled = false
        var lastFlush = ContinuousClock.now
        /// The baseline's SHA-256 seen last.
        var baselineSHA256: String?
        /// Whether the view was filled once.
        var known = false
        /// Where the app's files are.
        var layout: StateLayout?
    }

    func choose(_ app: String?, baseline override: ScriptLookup?) async -> Choice {
        if let app, let served = served(app) {
            return Choice(lookup: .script(served.script), served: served)
        }
        if let override { return Choice(lookup: override, served: nil) }
        switch baseline {
        case .directory(let directory): return Choice(lookup: await directory.script(for: app), served: nil)
        case .script(let script): return Choice(lookup: .script(script), served: nil)
        case .none: return Choice(lookup: .missing, served: nil)
        }
    }

    /// The app's layout, made once.
    func layout(_ app: String) -> StateLayout {
        if let layout = views.withLock({ $0[app]?.layout }) { return layout }
        let layout = StateLayout(directory: stateDirectory, app: app)
        views.withLock { $0[app, default: AppView()].layout = layout }
        return layout
    }

    /// What a look at the view with the state file's stamp found.
    enum Glance {
        /// The stamp is the one read, and this is served (nil: the baseline).
        case known(ServedVersion?)
        /// The file must be read, or a version loaded.
        case unknown
    }

    /// The installed version to serve for `app`, after a look at its state file.
    func served(_ app: String) -> ServedVersion? {
        let layout = layout(app)
        // The common case, one `stat` and one lock: nothing changed and the version is loaded.
        let stamp = ScriptFileSystem.stamp(at: layout.statePath)
        // In place (a mutating call through the subscript): the view is not copied.
        let glance = views.withLock { $0[app]?.glance(stamp: stamp) ?? .unknown }
        if case .known(let served) = glance { return served }
        guard let state = currentState(layout) else { return nil }
        for installed in state.preference {
            if let served = views.withLock({ $0[app]?.loaded[installed.version] }) { return served }
            if views.withLock({ $0[app]?.unusable.contains(installed.version) ?? false }) { continue }
            switch VersionLoader.load(installed, layout: layout, trust: trust, crypto: crypto) {
            case .success(let served):
                views.withLock { $0[app, default: AppView()].loaded[installed.version] = served }
                return served
            case .failure(let failure):
                let first = views.withLock { $0[app, default: AppView()].unusable.insert(installed.version).inserted }
                if first { report(.unusable(app: app, version: installed.version, message: failure.message)) }
            }
        }
        return nil
    }

    /// The app's state as its file holds it now: one `stat` when the file did not change.
    func currentState(_ layout: StateLayout) -> InstalledState? {
        let app = layout.app
        let stamp = ScriptFileSystem.stamp(at: layout.statePath)
        let cached = views.withLock { views -> (hit: Bool, view: AppView?) in
            guard let view = views[app], view.known else { return (false, nil) }
            return (view.stamp == stamp && (view.settled || stamp == nil), view)
        }
        if cached.hit { return cached.view?.state }
        guard let stamp else {
            views.withLock { views in
                views[app, default: AppView()].apply(stamp: nil, settled: true, bytes: nil, state: nil)
            }
            return nil
        }
        let now = ScriptFileSystem.now()
        let read = try? layout.state.readBytes()
        let bytes = read?.0
        let readStamp = read?.1 ?? stamp
        if let bytes, let view = cached.view, view.bytes == bytes {
            views.withLock { $0[app]?.stamp = readStamp; $0[app]?.settled = readStamp.isSettled(at: now) }
            return view.state
        }
        var state: InstalledState?
        if let bytes {
            do { state = try InstalledState.decode(bytes) } catch {
                let first = views.withLock { $0[app]?.bytes != bytes }
                if first { report(.unreadableState(app: app, message: "\(layout.state.url.path): \(error.message); serving the baseline")) }
            }
        }
        views.withLock { views in
            views[app, default: AppView()].apply(stamp: readStamp, settled: readStamp.isSettled(at: now), bytes: bytes, state: state)
        }
        return state
    }
}

extension InstalledScripts.AppView {
    /// What the view serves when the state file's stamp is `stamp`, if it knows without reading
    /// the file or loading a version. `mutating` only so that a call through a dictionary's
    /// subscript works on the view in place.
    mutating func glance(stamp: FileStamp?) -> InstalledScripts.Glance {
        guard known, self.stamp == stamp, settled || stamp == nil else { return .unknown }
        guard let state else { return .known(nil) }
        if let candidate = state.candidate, candidate.taken {
            if let served = loaded[candidate.version] { return .known(served) }
            if !unusable.contains(candidate.version) { return .unknown }
        }
        for installed in state.good.reversed() {
            if let served = loaded[installed.version] { return .known(served) }
            if !unusable.contains(installed.version) { return .unknown }
        }
        return .known(nil)
    }

    /// Takes a new reading of the state file.
    mutating func apply(stamp: FileStamp?, settled: Bool, bytes: Data?, state: InstalledState?) {
        self.stamp = stamp
        self.settled = settled
        self.bytes = bytes
        self.state = state
        known = true
        // A version that failed its check may be fixed by what replaced the state: look again.
        unusable = []
    }
}
