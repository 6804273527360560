import Foundation
import ScriptHost

/// Where an app's installed bundles live in a state folder (the folder `--state` names, which
/// the store and categories use too):
///
/// - `<app>.bundles.json`: the installed state (``InstalledState``), replaced at once by each
///   change; `<app>.bundles.json.lock` is the lock every change takes (the store's lock);
/// - `<app>.bundle-counts.json`: the deliveries counted per version;
/// - `<app>.bundles/<version>/`: each version's files as the bundle lists them, and
///   `.envelope`, the signed part of its bundle; a folder is complete before the state names it;
/// - `bundle-rollout.seed.json`: the device's rollout seed, one per state folder (a JSON
///   string of 64 hex digits).
struct StateLayout: Sendable {
    let directory: URL
    let app: String
    /// The installed state's file.
    let state: StateFile
    /// Its path, which every lookup stats.
    let statePath: String
    /// The counts' file.
    let counts: StateFile
    /// The folder of the versions' folders.
    let versions: URL

    init(directory: URL, app: String) {
        self.directory = directory
        self.app = app
        state = StateFile(directory: directory, app: app, kind: "bundles")
        statePath = state.url.path
        counts = StateFile(directory: directory, app: app, kind: "bundle-counts")
        versions = directory.appendingPathComponent(StateFile.fileName(app: app) + ".bundles", isDirectory: true)
    }

    /// A version's folder.
    func folder(_ version: Int) -> URL { versions.appendingPathComponent(String(version), isDirectory: true) }

    /// The file in a version's folder that keeps the signed part of its bundle.
    static let envelopeName = ".envelope"
    /// The prefix of a folder an install is still writing.
    static let incomingPrefix = ".incoming-"
}

/// The device's rollout draw: each version's draw comes from a seed made once per state folder,
/// so a device draws the same for a version every time, and a 10 % rollout reaches about 10 %
/// of devices.
///
/// The draw is the first 8 bytes, big-endian, of SHA-256 of
/// `"pushscript-rollout-1\n" + seed + "\n" + app + "\n" + version`, modulo 100; the device takes
/// the version when the draw is below the rollout percentage.
enum RolloutDraw {
    static func draw(seed: [UInt8], app: String, version: Int, crypto: any BundleCrypto) -> Int {
        let message = Array("pushscript-rollout-1\n".utf8) + seed + Array("\n\(app)\n\(version)".utf8)
        let value = crypto.sha256(message).prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return Int(value % 100)
    }

    /// The seed's file text: a JSON string of 64 hex digits, and a newline.
    static func seedText(_ seed: [UInt8]) -> [UInt8] { Array(("\"" + Hex.string(seed) + "\"\n").utf8) }

    /// The seed of a file's text (the JSON string, or the 64 digits alone); nil when it is not one.
    static func seed(fileBytes: Data) -> [UInt8]? {
        var text = Substring(String(decoding: fileBytes, as: UTF8.self))
        if text.hasSuffix("\n") { text.removeLast() }
        if text.count == 66, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        guard text.utf8.count == 64, let bytes = Hex.bytes(String(text)) else { return nil }
        return bytes
    }

    /// A new seed.
    static func newSeed() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

/// What a host allows a bundle at most: limits and hosts. A bundle may ask for less, never for
/// more; one that does is refused at install.
public struct HostCeiling: Sendable {
    /// The host's limits.
    public var limits: ScriptLimits
    /// The hosts it allows over plain `http`.
    public var allowHTTP: Set<String>
    /// The hosts it allows posts to.
    public var allowPost: Set<String>

    /// A ceiling; by default SPEC's limits and no hosts.
    public init(limits: ScriptLimits = .default, allowHTTP: Set<String> = [], allowPost: Set<String> = []) {
        self.limits = limits
        self.allowHTTP = Set(allowHTTP.map { $0.lowercased() })
        self.allowPost = Set(allowPost.map { $0.lowercased() })
    }

    /// The ceiling of a host's configuration.
    public init(_ configuration: HostConfiguration) {
        self.init(limits: configuration.limits, allowHTTP: configuration.allowHTTPHosts, allowPost: configuration.allowPostHosts)
    }

    /// Why `manifest` asks for more than this ceiling, or nil.
    func widening(_ manifest: BundleManifest) -> String? {
        if let limit = manifest.limits.widening(limits) { return "the bundle asks for \(limit)" }
        if let host = manifest.allowHTTP?.first(where: { !allowHTTP.contains($0) }) {
            return "the bundle asks for plain http to \(host), which the host does not allow"
        }
        if let host = manifest.allowPost?.first(where: { !allowPost.contains($0) }) {
            return "the bundle asks to post to \(host), which the host does not allow"
        }
        return nil
    }
}
