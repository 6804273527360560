import ScriptHost

/// What a bundle says about itself, signed: the app and version, when it may be installed,
/// how it is rolled out, what it asks of the host, and every file with its size and SHA-256.
///
/// Its JSON (``jsonValue``; keys as written here) is what `bundle inspect` prints and, in
/// canonical form after the format tag, what is signed.
public struct BundleManifest: Sendable, Hashable {
    /// The app's bundle identifier (`app`).
    public var app: String
    /// The version: a whole number from 1 that only grows (`version`).
    public var version: Int
    /// The lowest ``ScriptHost/hostVersion`` that may install it (`minimumHostVersion`).
    public var minimumHostVersion: Int
    /// When it was built, in seconds since 1970 UTC (`created`).
    public var created: Int64
    /// After this time (seconds since 1970 UTC) it is no longer installed (`expires`).
    public var expires: Int64
    /// The share of devices that take it, in percent, 0 to 100 (`rollout`).
    public var rollout: Int
    /// How many of its first deliveries on a device are watched before it is promoted
    /// (`probation`); 0 promotes it at once.
    public var probation: Int
    /// The limits it asks for, each no more than the host's (`limits`).
    public var limits: RequestedLimits
    /// The hosts it may reach over plain `http`, within the host's; nil for the host's (`allowHttp`).
    public var allowHTTP: [String]?
    /// The hosts it may post to, within the host's; nil for the host's (`allowPost`).
    public var allowPost: [String]?
    /// The key that signed it (`keyId`).
    public var keyID: KeyID
    /// Its files, sorted by path (`files`).
    public var files: [BundleFileEntry]

    /// A manifest.
    public init(
        app: String, version: Int, minimumHostVersion: Int = ScriptHost.hostVersion, created: Int64, expires: Int64,
        rollout: Int = 100, probation: Int = BundleManifest.defaultProbation, limits: RequestedLimits = RequestedLimits(),
        allowHTTP: [String]? = nil, allowPost: [String]? = nil, keyID: KeyID, files: [BundleFileEntry]
    ) {
        self.app = app
        self.version = version
        self.minimumHostVersion = minimumHostVersion
        self.created = created
        self.expires = expires
        self.rollout = rollout
        self.probation = probation
        self.limits = limits
        self.allowHTTP = allowHTTP
        self.allowPost = allowPost
        self.keyID = keyID
        self.files = files.sorted { Array($0.path.utf8).lexicographicallyPrecedes(Array($1.path.utf8)) }
    }

    /// The probation when a build names none: 20 deliveries.
    public static let defaultProbation = 20

    /// The script file.
    public var script: BundleFileEntry? { files.first { $0.kind == .script } }

    /// Whether it ships media files.
    public var hasMedia: Bool { files.contains { $0.kind == .media } }

    /// The bytes its files take together.
    public var totalSize: Int { files.reduce(0) { $0 + $1.size } }

    /// Whether `app` may name an app in a manifest: a bundle identifier (ASCII letters, digits,
    /// `-` and `.`, 1 to 255 bytes, not starting with `.`).
    public static func isValidApp(_ app: String) -> Bool { AppIdentifier.isValid(app) }
}

/// One file of a bundle: where it goes, what it is, its size and its SHA-256.
public struct BundleFileEntry: Sendable, Hashable {
    /// What a file is for.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The app's script (exactly one, at the top, `.lua`).
        case script
        /// A module the script `require`s (`.lua`, outside `media/`).
        case module
        /// A file for the media directory (under `media/`), which `content:attach{path = …}` reads.
        case media
    }

    /// The path in the bundle (``BundlePath``'s rules).
    public var path: String
    /// What it is.
    public var kind: Kind
    /// Its size in bytes.
    public var size: Int
    /// Its SHA-256, lower-case hex.
    public var sha256: String

    /// An entry.
    public init(path: String, kind: Kind, size: Int, sha256: String) {
        self.path = path
        self.kind = kind
        self.size = size
        self.sha256 = sha256
    }
}

/// The limits a bundle asks for; each is at most the host's, and a limit it leaves out is the
/// host's. Whole milliseconds and MiB, as `--cpu-ms`, `--memory-mb` and `--time-ms` take them.
public struct RequestedLimits: Sendable, Hashable {
    /// The CPU budget in ms (`cpuMs`).
    public var cpuMs: Int64?
    /// The memory limit in MiB (`memoryMB`).
    public var memoryMB: Int64?
    /// The deadline in ms (`timeMs`).
    public var timeMs: Int64?

    /// Limits; nil leaves a limit the host's.
    public init(cpuMs: Int64? = nil, memoryMB: Int64? = nil, timeMs: Int64? = nil) {
        self.cpuMs = cpuMs
        self.memoryMB = memoryMB
        self.timeMs = timeMs
    }

    /// Whether it asks for nothing.
    public var isEmpty: Bool { cpuMs == nil && memoryMB == nil && timeMs == nil }

    /// The value asked for a setting.
    public subscript(setting: LimitSetting) -> Int64? {
        switch setting {
        case .cpuMs: cpuMs
        case .memoryMB: memoryMB
        case .timeMs: timeMs
        }
    }

    /// `limits` with each limit asked for put in its place when it is lower.
    public func narrowing(_ limits: ScriptLimits) -> ScriptLimits {
        var out = limits
        if let cpuMs { out.cpuTime = min(out.cpuTime, .milliseconds(cpuMs)) }
        if let memoryMB { out.memoryBytes = min(out.memoryBytes, Int(memoryMB) << 20) }
        if let timeMs { out.time = min(out.time, .milliseconds(timeMs)) }
        return out
    }

    /// The first limit asked for that is above `limits`, as a message says it; nil when none is.
    public func widening(_ limits: ScriptLimits) -> String? {
        if let cpuMs, Duration.milliseconds(cpuMs) > limits.cpuTime {
            return "cpuMs \(cpuMs), above the host's \(Self.ms(limits.cpuTime))"
        }
        if let memoryMB, Int(memoryMB) << 20 > limits.memoryBytes {
            return "memoryMB \(memoryMB), above the host's \(limits.memoryBytes >> 20)"
        }
        if let timeMs, Duration.milliseconds(timeMs) > limits.time {
            return "timeMs \(timeMs), above the host's \(Self.ms(limits.time))"
        }
        return nil
    }

    private static func ms(_ d: Duration) -> Int64 { d.components.seconds * 1000 + d.components.attoseconds / 1_000_000_000_000_000 }
}

/// A signed record that takes one version of an app's bundle out of service, everywhere it is
/// installed: the kill switch. Installed like a bundle.
public struct Revocation: Sendable, Hashable {
    /// The app (`app`).
    public var app: String
    /// The version revoked (`version`).
    public var version: Int
    /// When it was made, in seconds since 1970 UTC (`created`).
    public var created: Int64
    /// The key that signed it (`keyId`).
    public var keyID: KeyID

    /// A revocation.
    public init(app: String, version: Int, created: Int64, keyID: KeyID) {
        self.app = app
        self.version = version
        self.created = created
        self.keyID = keyID
    }
}
