import Foundation
import NotificationModel
import ScriptHost

/// What `bundle status` prints: for each app of a state folder, the version in service, the
/// baseline, the candidate, the last good version, what was rolled back or revoked and why, and
/// the deliveries counted per version.
///
/// ```json
/// {"apps": {"com.example.news": {
///   "active": {"version": 2, "sha256": "…"},
///   "baseline": {"sha256": "…"},
///   "candidate": null,
///   "lastGood": {"version": 2, "sha256": "…"},
///   "highest": 3,
///   "rolledBack": [{"version": 3, "sha256": "…", "at": "…", "reason": "…", "probation": {…}}],
///   "revoked": [],
///   "counts": {"baseline": {"deliveries": 4, "completed": 4, "fallbacks": {}}, "2": {…}, "3": {…}}
/// }}}
/// ```
public enum BundleStatus {
    /// The status of the apps in `directory` (only `app` when given) as JSON.
    public static func json(stateDirectory directory: URL, app: String? = nil) throws(BundleRefusal) -> JSONValue {
        var apps: [String: JSONValue] = [:]
        for name in try appNames(in: directory) where app == nil || app == name {
            apps[name] = try appStatus(StateLayout(directory: directory, app: name))
        }
        if let app, apps[app] == nil { apps[app] = try appStatus(StateLayout(directory: directory, app: app)) }
        return .object(["apps": .object(apps)])
    }

    /// The apps with installed state or counts in the folder.
    static func appNames(in directory: URL) throws(BundleRefusal) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw BundleRefusal(.state, "cannot read the state folder \(directory.path); check the path")
        }
        var apps: Set<String> = []
        for name in names {
            for suffix in [".bundles.json", ".bundle-counts.json"] where name.hasSuffix(suffix) && !name.hasPrefix(".") {
                if let app = String(name.dropLast(suffix.count)).removingPercentEncoding, app != "_" { apps.insert(app) }
            }
        }
        return apps.sorted()
    }

    static func appStatus(_ layout: StateLayout) throws(BundleRefusal) -> JSONValue {
        var state = InstalledState(app: layout.app)
        do {
            if let (data, _) = try layout.state.readBytes() { state = try InstalledState.decode(data) }
        } catch {
            throw BundleRefusal(.state, "the installed state \(layout.state.url.path) cannot be read (\(error)); move it aside to start over from the baseline")
        }
        let counts = AppCounts.decode(try? layout.counts.readBytes()?.0)
        func identity(_ v: InstalledVersion?) -> JSONValue {
            guard let v else { return .null }
            return .object(["version": .integer(Int64(v.version)), "sha256": .string(v.sha256)])
        }
        var candidate: JSONValue = .null
        if let c = state.candidate {
            let seen = counts[c.version]
            candidate = .object([
                "version": .integer(Int64(c.version)), "sha256": .string(c.sha256), "rollout": .integer(Int64(c.rollout)),
                "draw": .integer(Int64(c.draw)), "taken": .bool(c.taken), "probation": .integer(Int64(c.probation)),
                "deliveries": .integer(Int64(seen.deliveries)), "failures": .integer(Int64(seen.failures)),
            ])
        }
        let rolledBack: [JSONValue] = state.rolledBack.map { r in
            .object([
                "version": .integer(Int64(r.version.version)), "sha256": .string(r.version.sha256),
                "at": .string(ManifestClock.text(r.at)), "reason": .string("rolled back after probation: " + r.record.summary),
                "probation": r.record.jsonValue,
            ])
        }
        let revoked: [JSONValue] = state.revoked.map { r in
            .object([
                "version": .integer(Int64(r.version)), "at": .string(ManifestClock.text(r.at)),
                "reason": .string("revoked by a revocation signed by key \(r.keyID), made \(ManifestClock.text(r.created))"),
            ])
        }
        return .object([
            "active": identity(state.preference.first),
            "baseline": .object(["sha256": counts.baselineSHA256.map { .string($0) } ?? .null]),
            "candidate": candidate,
            "lastGood": identity(state.lastGood),
            "highest": .integer(Int64(state.highest)),
            "rolledBack": .array(rolledBack),
            "revoked": .array(revoked),
            "counts": .object(counts.versions.mapValues(\.jsonValue)),
        ])
    }
}
