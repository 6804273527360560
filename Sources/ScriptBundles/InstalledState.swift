/// One app's installed bundles on a device, as its state file (`DIR/<app>.bundles.json`) holds
/// them: the versions that passed probation, the candidate, and what was rolled back or revoked.
///
/// The version in service is the candidate when this device takes it, else the last good
/// version, else the baseline (the app's own script).
struct InstalledState: Sendable, Hashable {
    /// The app.
    var app: String
    /// The highest version ever installed: a bundle must be above it.
    var highest = 0
    /// Versions that passed probation (or had none), oldest first; the last is the last good
    /// one. At most ``keptGoodVersions``.
    var good: [InstalledVersion] = []
    /// The newest version, while it is on probation or when this device does not take it.
    var candidate: InstalledVersion?
    /// Versions rolled back on this device, with why.
    var rolledBack: [RolledBackVersion] = []
    /// Versions revoked.
    var revoked: [RevokedVersion] = []
    /// Counts the writes of the file.
    var generation = 0

    /// How many good versions are kept to return to.
    static let keptGoodVersions = 3

    init(app: String) { self.app = app }

    /// The last good version, nil for the baseline.
    var lastGood: InstalledVersion? { good.last }

    /// The versions to serve, most preferred first: the candidate when taken, then the good
    /// versions newest first.
    var preference: [InstalledVersion] {
        var out: [InstalledVersion] = []
        if let candidate, candidate.taken { out.append(candidate) }
        out += good.reversed()
        return out
    }

    /// The version numbers whose folders the state needs.
    var referencedVersions: Set<Int> {
        Set(good.map(\.version) + [candidate?.version].compactMap { $0 })
    }

    /// Ends the candidate's probation early because a newer version replaces it: a candidate
    /// that served on this device and whose failures so far are within the margin
    /// (``ProbationRule``) becomes the last good version, the one to return to; one past the
    /// margin is rolled back. A candidate this device did not take is dropped.
    mutating func supersedeCandidate(counts: AppCounts, at now: Int64) {
        guard let old = candidate else { return }
        candidate = nil
        guard old.taken else { return }
        let previousVersion = lastGood?.version
        let seen = counts[old.version]
        if ProbationRule.exceeds(failures: seen.failures, probation: seen.deliveries, previous: counts[previousVersion]) {
            let record = ProbationRecord(counts: seen, probation: old.probation, previousVersion: previousVersion, previous: counts[previousVersion])
            rolledBack.append(RolledBackVersion(version: old, at: now, record: record))
        } else {
            promote(old)
        }
    }

    /// Makes `version` the last good one.
    mutating func promote(_ version: InstalledVersion) {
        good = Array((good + [version]).suffix(Self.keptGoodVersions))
    }

    /// Whether `version` was rolled back.
    func rolledBackRecord(_ version: Int) -> RolledBackVersion? { rolledBack.first { $0.version.version == version } }

    /// Whether `version` was revoked.
    func revocation(_ version: Int) -> RevokedVersion? { revoked.first { $0.version == version } }
}

/// A version as the state remembers it.
struct InstalledVersion: Sendable, Hashable {
    /// Its number.
    var version: Int
    /// The SHA-256 of its script.
    var sha256: String
    /// The key that signed it.
    var keyID: KeyID
    /// Its rollout percentage.
    var rollout: Int
    /// Its probation length.
    var probation: Int
    /// This device's draw for it, 0 to 99: it takes the version when the draw is below the rollout.
    var draw: Int
    /// When it was installed (seconds since 1970 UTC).
    var installed: Int64

    /// Whether this device takes it.
    var taken: Bool { draw < rollout }
}

/// A version rolled back after its probation went wrong.
struct RolledBackVersion: Sendable, Hashable {
    var version: InstalledVersion
    /// When (seconds since 1970 UTC).
    var at: Int64
    /// What probation saw.
    var record: ProbationRecord
}

/// A version revoked by a signed revocation.
struct RevokedVersion: Sendable, Hashable {
    var version: Int
    /// When it was installed here (seconds since 1970 UTC).
    var at: Int64
    /// The key that signed the revocation.
    var keyID: KeyID
    /// When the revocation was made.
    var created: Int64
}
