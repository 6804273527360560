import Foundation
import ScriptHost

/// What an install did, as one line.
public struct InstallReport: Sendable, CustomStringConvertible {
    /// The app.
    public let app: String
    /// The version installed or revoked.
    public let version: Int
    /// The line `bundle install` prints.
    public let line: String
    public var description: String { line }
}

/// Installs bundles and revocations into a state folder: what an app does once it has fetched
/// one.
///
/// Everything is verified before anything is written (``BundleVerifier``), then, under the
/// app's state lock (the store's lock, so two installs at once take turns): the version must be
/// above every version installed before and must not have been rolled back or revoked, and it
/// may not ask for more than the host allows (``HostCeiling``). The files go into a new folder
/// that is renamed into place when complete; then the state file is replaced at once, which is
/// the moment the new version exists. A crash before that leaves the previous state in
/// service; what it leaves behind is removed by the next install. Folders of versions neither
/// the previous nor the new state names are removed after, so a request still running with the
/// version just replaced keeps its files.
public struct BundleInstaller: Sendable {
    /// The state folder.
    public let stateDirectory: URL
    /// Checks bundles.
    public let verifier: BundleVerifier
    /// What the host allows a bundle at most.
    public var ceiling: HostCeiling
    /// When set, bundles for other apps are refused.
    public var app: String?
    /// The file operations (a test's, to stop an install after any step).
    package var files: any InstallFileOperations = SystemFileOperations()

    /// An installer.
    public init(stateDirectory: URL, verifier: BundleVerifier, ceiling: HostCeiling = HostCeiling(), app: String? = nil) {
        self.stateDirectory = stateDirectory
        self.verifier = verifier
        self.ceiling = ceiling
        self.app = app
    }

    /// Verifies and installs a container (a bundle or a revocation) at time `now`.
    public func install(_ bytes: [UInt8], now: Int64 = ManifestClock.now()) throws(BundleRefusal) -> InstallReport {
        let item = try verifier.verify(bytes, now: now)
        let itemApp: String
        switch item {
        case .bundle(let bundle): itemApp = bundle.manifest.app
        case .revocation(let revocation): itemApp = revocation.app
        }
        if let app, itemApp != app {
            throw BundleRefusal(.otherApp, "it is for \(itemApp), not \(app); install the bundle built for \(app)")
        }
        if case .bundle(let bundle) = item, let wider = ceiling.widening(bundle.manifest) {
            throw BundleRefusal(.wider, "\(wider); a bundle may narrow the host's limits and hosts, never widen them")
        }
        let layout = StateLayout(directory: stateDirectory, app: itemApp)
        return try locked(layout) { () throws(BundleRefusal) -> InstallReport in
            let previous = try readState(layout)
            switch item {
            case .bundle(let bundle): return try install(bundle, over: previous, layout: layout, now: now)
            case .revocation(let revocation): return try revoke(revocation, over: previous, layout: layout, now: now)
            }
        }
    }

    // MARK: Bundles

    private func install(_ bundle: VerifiedBundle, over previous: InstalledState, layout: StateLayout, now: Int64) throws(BundleRefusal) -> InstallReport {
        let manifest = bundle.manifest
        let version = manifest.version
        if previous.revocation(version) != nil {
            throw BundleRefusal(.revoked, "\(manifest.app) version \(version) was revoked; build a new version above \(max(previous.highest, version))")
        }
        if let record = previous.rolledBackRecord(version) {
            throw BundleRefusal(.rolledBack, "\(manifest.app) version \(version) was rolled back on this device (\(record.record.counts.failures) of \(record.record.counts.deliveries) deliveries failed); build a new version above \(previous.highest)")
        }
        guard version > previous.highest else {
            throw BundleRefusal(.notNewer, "\(manifest.app) version \(version) is not above the installed version \(previous.highest); build a version above \(previous.highest)")
        }
        let seed = try rolloutSeed()
        let installed = InstalledVersion(
            version: version, sha256: manifest.script?.sha256 ?? "", keyID: manifest.keyID, rollout: manifest.rollout,
            probation: manifest.probation, draw: RolloutDraw.draw(seed: seed, app: manifest.app, version: version, crypto: verifier.crypto),
            installed: now)
        try writeFolder(of: bundle, layout: layout)

        var next = previous
        next.highest = version
        next.supersedeCandidate(counts: AppCounts.decode(try? layout.counts.readBytes()?.0), at: now)
        if installed.taken, installed.probation == 0 {
            next.promote(installed)
        } else {
            next.candidate = installed
        }
        try commit(next, over: previous, layout: layout)

        let app = manifest.app
        let staying = next.preference.first.map { "version \($0.version)" } ?? "the baseline"
        let line: String
        if !installed.taken {
            line = "installed \(app) version \(version): this device is outside its \(installed.rollout)% rollout; \(staying) stays in service"
        } else if installed.probation == 0 {
            line = "installed \(app) version \(version): in service (no probation)"
        } else {
            line = "installed \(app) version \(version): in service on probation for its first \(installed.probation) deliveries (rollout \(installed.rollout)%)"
        }
        return InstallReport(app: app, version: version, line: line)
    }

    /// Writes the version's folder: the files in a new folder, then the folder renamed into place.
    private func writeFolder(of bundle: VerifiedBundle, layout: StateLayout) throws(BundleRefusal) {
        do {
            try files.makeDirectory(layout.versions)
            let incoming = layout.versions.appendingPathComponent(StateLayout.incomingPrefix + UUID().uuidString, isDirectory: true)
            try files.makeDirectory(incoming)
            var made: Set<String> = []
            for (file, bytes) in zip(bundle.manifest.files, bundle.contents) {
                var folder = incoming
                for part in file.path.split(separator: "/").dropLast() {
                    folder = folder.appendingPathComponent(String(part), isDirectory: true)
                    if made.insert(folder.path).inserted { try files.makeDirectory(folder) }
                }
                try files.writeNew(Array(bytes), to: incoming.appendingPathComponent(file.path, isDirectory: false))
            }
            try files.writeNew(bundle.envelope, to: incoming.appendingPathComponent(StateLayout.envelopeName, isDirectory: false))
            try files.syncDirectory(incoming)
            let target = layout.folder(bundle.manifest.version)
            // A folder of this version that no state names: left by an install that died
            // after renaming it.
            if FileManager.default.fileExists(atPath: target.path) { try files.remove(target) }
            try files.move(incoming, to: target)
            try files.syncDirectory(layout.versions)
        } catch {
            throw BundleRefusal(.state, "\(error.message); the previous state stays in service")
        }
    }

    // MARK: Revocations

    private func revoke(_ revocation: Revocation, over previous: InstalledState, layout: StateLayout, now: Int64) throws(BundleRefusal) -> InstallReport {
        let (app, version) = (revocation.app, revocation.version)
        if previous.revocation(version) != nil {
            return InstallReport(app: app, version: version, line: "\(app) version \(version) was already revoked; nothing changed")
        }
        var next = previous
        next.revoked.append(RevokedVersion(version: version, at: now, keyID: revocation.keyID, created: revocation.created))
        if next.candidate?.version == version { next.candidate = nil }
        next.good.removeAll { $0.version == version }
        try commit(next, over: previous, layout: layout)
        let serving = next.preference.first.map { "version \($0.version)" } ?? "the baseline"
        return InstallReport(app: app, version: version, line: "revoked \(app) version \(version): \(serving) is in service")
    }

    // MARK: State

    /// Replaces the state file with `next` (the moment the change happens), then removes what
    /// neither state names.
    func commit(_ next: InstalledState, over previous: InstalledState, layout: StateLayout) throws(BundleRefusal) {
        var next = next
        next.generation = previous.generation + 1
        do {
            try StateWriting.replace(layout.state.url, with: Array(next.encoded()), files: files)
        } catch {
            throw BundleRefusal(.state, "\(error.message); the previous state stays in service")
        }
        StateWriting.prune(layout, keeping: next.referencedVersions.union(previous.referencedVersions), files: files)
    }

    private func readState(_ layout: StateLayout) throws(BundleRefusal) -> InstalledState {
        let read: (Data, FileStamp?)?
        do { read = try layout.state.readBytes() } catch {
            throw BundleRefusal(.state, "\(error.message); check the state folder")
        }
        guard let (data, _) = read else { return InstalledState(app: layout.app) }
        do { return try InstalledState.decode(data) } catch {
            throw BundleRefusal(.state, "the installed state \(layout.state.url.path) is not what the installer writes (\(error.message)); move it aside to start over from the baseline")
        }
    }

    /// The device's rollout seed, made on the first install into the folder.
    private func rolloutSeed() throws(BundleRefusal) -> [UInt8] {
        let file = StateFile(directory: stateDirectory, app: "bundle-rollout", kind: "seed")
        do {
            return try file.withLock { () throws -> [UInt8] in
                if let (data, _) = try file.readBytes() {
                    guard let seed = RolloutDraw.seed(fileBytes: data) else {
                        throw FileOperationError("the rollout seed \(file.url.path) is damaged; move it aside (this device then draws anew)")
                    }
                    return seed
                }
                let seed = RolloutDraw.newSeed()
                try StateWriting.replace(file.url, with: RolloutDraw.seedText(seed), files: files)
                return seed
            }
        } catch let error as FileOperationError {
            throw BundleRefusal(.state, error.message)
        } catch {
            throw BundleRefusal(.state, "\(error)")
        }
    }

    /// Runs `body` holding the app's state lock.
    private func locked<T>(_ layout: StateLayout, _ body: () throws(BundleRefusal) -> T) throws(BundleRefusal) -> T {
        do {
            return try layout.state.withLock { () throws -> T in try body() }
        } catch let refusal as BundleRefusal {
            throw refusal
        } catch let error as StateFileError {
            throw BundleRefusal(.state, error.message)
        } catch {
            throw BundleRefusal(.state, "\(error)")
        }
    }
}

/// Writing state files through ``InstallFileOperations``.
enum StateWriting {
    /// Replaces `url` with `bytes` at once: a new file beside it, renamed over it.
    static func replace(_ url: URL, with bytes: [UInt8], files: any InstallFileOperations) throws(FileOperationError) {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp", isDirectory: false)
        try files.writeNew(bytes, to: temporary)
        do { try files.move(temporary, to: url) } catch {
            try? files.remove(temporary)
            throw error
        }
        try files.syncDirectory(folder)
    }

    /// Removes the folders of versions not in `keeping`, and the folders and state files an
    /// install left unfinished.
    /// Under the state lock. What cannot be removed stays until the next install.
    static func prune(_ layout: StateLayout, keeping: Set<Int>, files: any InstallFileOperations) {
        // New state files that a process died before renaming into place.
        let stateNames = [layout.state.url.lastPathComponent, layout.counts.url.lastPathComponent]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: layout.directory.path)) ?? []
        where name.hasSuffix(".tmp") && stateNames.contains(where: { name.hasPrefix(".\($0).") }) {
            try? files.remove(layout.directory.appendingPathComponent(name, isDirectory: false))
        }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: layout.versions.path) else { return }
        for name in names {
            let stale: Bool
            if name.hasPrefix(StateLayout.incomingPrefix) {
                stale = true
            } else if let version = Int(name), String(version) == name {
                stale = !keeping.contains(version)
            } else {
                stale = false
            }
            if stale { try? files.remove(layout.versions.appendingPathComponent(name, isDirectory: true)) }
        }
    }
}
