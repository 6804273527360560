import NotificationModel
import ScriptHost

extension BundleManifest {
    /// The most files a bundle holds.
    public static let maximumFiles = 256
    /// The largest script or module: ``Script/maximumSize`` (1 MiB).
    public static let maximumLuaFileSize = Script.maximumSize
    /// The largest media file: 10 MiB.
    public static let maximumMediaFileSize = 10 << 20
    /// The most bytes a bundle's files take together: 32 MiB.
    public static let maximumTotalSize = 32 << 20
    /// The most hosts `allowHttp` or `allowPost` lists.
    public static let maximumHosts = 64
    /// The highest version.
    public static let maximumVersion = 999_999_999

    /// The manifest as JSON (the keys of the type's documentation).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "app": .string(app),
            "version": .integer(Int64(version)),
            "minimumHostVersion": .integer(Int64(minimumHostVersion)),
            "created": .integer(created),
            "expires": .integer(expires),
            "rollout": .integer(Int64(rollout)),
            "probation": .integer(Int64(probation)),
            "keyId": .string(keyID.description),
            "files": .array(files.map(\.jsonValue)),
        ]
        if !limits.isEmpty { object["limits"] = limits.jsonValue }
        if let allowHTTP { object["allowHttp"] = .array(allowHTTP.map { .string($0) }) }
        if let allowPost { object["allowPost"] = .array(allowPost.map { .string($0) }) }
        return .object(object)
    }

    /// Reads and checks a manifest's JSON; every rule broken is a ``BundleRefusal/Kind/malformed``
    /// refusal naming it.
    public init(json: JSONValue) throws(BundleRefusal) {
        let reader = try ObjectReader(json, "the manifest", keys: [
            "app", "version", "minimumHostVersion", "created", "expires", "rollout", "probation", "keyId", "files",
        ], optional: ["limits", "allowHttp", "allowPost"])
        app = try reader.app()
        version = Int(try reader.integer("version", in: 1...Int64(Self.maximumVersion)))
        minimumHostVersion = Int(try reader.integer("minimumHostVersion", in: 1...Int64(Int32.max)))
        created = try reader.integer("created", in: 0...ManifestTime.latest)
        expires = try reader.integer("expires", in: 0...ManifestTime.latest)
        guard expires > created else { throw malformed("expires (\(expires)) is not after created (\(created))") }
        rollout = Int(try reader.integer("rollout", in: 0...100))
        probation = Int(try reader.integer("probation", in: 0...100_000))
        keyID = try reader.keyID()
        limits = try reader.value("limits").map { value throws(BundleRefusal) in try RequestedLimits(json: value) } ?? RequestedLimits()
        allowHTTP = try reader.hosts("allowHttp")
        allowPost = try reader.hosts("allowPost")
        files = try Self.files(reader.value("files"))
    }

    private static func files(_ value: JSONValue?) throws(BundleRefusal) -> [BundleFileEntry] {
        guard case .array(let elements) = value else { throw malformed("'files' is not an array") }
        guard elements.count <= maximumFiles else {
            throw malformed("the manifest lists \(elements.count) files; a bundle holds at most \(maximumFiles)")
        }
        var files: [BundleFileEntry] = []
        var folded: Set<String> = []
        var total = 0
        for element in elements {
            let file = try BundleFileEntry(json: element)
            if let previous = files.last, !Array(previous.path.utf8).lexicographicallyPrecedes(Array(file.path.utf8)) {
                throw malformed("the files are not sorted by path, or '\(file.path)' is listed twice")
            }
            guard folded.insert(BundlePath.folded(file.path)).inserted else {
                throw malformed("'\(file.path)' differs from another file's path in letter case only")
            }
            total += file.size
            guard total <= maximumTotalSize else {
                throw malformed("the files take more than \(maximumTotalSize >> 20) MiB together")
            }
            files.append(file)
        }
        let scripts = files.filter { $0.kind == .script }
        guard scripts.count == 1 else { throw malformed("the manifest lists \(scripts.count) scripts; a bundle has exactly one") }
        return files
    }
}

extension BundleFileEntry {
    /// The entry as JSON: `kind`, `path`, `sha256`, `size`.
    public var jsonValue: JSONValue {
        .object(["path": .string(path), "kind": .string(kind.rawValue), "size": .integer(Int64(size)), "sha256": .string(sha256)])
    }

    /// Reads and checks an entry: its path, its kind against its path, its size against its kind.
    init(json: JSONValue) throws(BundleRefusal) {
        let reader = try ObjectReader(json, "a file entry", keys: ["path", "kind", "size", "sha256"])
        path = try reader.string("path")
        if let problem = BundlePath.problem(path) { throw malformed(problem) }
        let kindName = try reader.string("kind")
        guard let kind = Kind(rawValue: kindName) else {
            throw malformed("'\(path)' has the kind '\(kindName.prefix(40))'; a file is a script, a module or media")
        }
        self.kind = kind
        // Checked before anything is allocated for it: a declared size is a claim.
        let size = try reader.integer("size", in: 0...Int64.max)
        let limit = kind == .media ? BundleManifest.maximumMediaFileSize : BundleManifest.maximumLuaFileSize
        guard size <= Int64(limit) else {
            throw malformed("'\(path)' declares \(size) bytes; a \(kind.rawValue) file holds at most \(limit >> 20) MiB")
        }
        self.size = Int(size)
        sha256 = try reader.string("sha256")
        guard sha256.utf8.count == 64, Hex.bytes(sha256) != nil else {
            throw malformed("the sha256 of '\(path)' is not 64 lower-case hex digits")
        }
        let isLua = path.hasSuffix(".lua")
        let inMedia = path.hasPrefix("media/")
        switch kind {
        case .script:
            guard isLua, !path.contains("/") else { throw malformed("the script '\(path)' is not a .lua file at the top of the bundle") }
        case .module:
            guard isLua, !inMedia else { throw malformed("the module '\(path)' is not a .lua file outside media/") }
        case .media:
            guard inMedia, !isLua else { throw malformed("the media file '\(path)' is not under media/, or is a .lua file") }
        }
    }
}

extension RequestedLimits {
    /// The limits as JSON: the ones asked for.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [:]
        for setting in LimitSetting.allCases { if let value = self[setting] { object[setting.rawValue] = .integer(value) } }
        return .object(object)
    }

    init(json: JSONValue) throws(BundleRefusal) {
        let reader = try ObjectReader(json, "'limits'", keys: [], optional: LimitSetting.allCases.map(\.rawValue))
        var limits = RequestedLimits()
        for setting in LimitSetting.allCases where reader.has(setting.rawValue) {
            let value = try reader.integer(setting.rawValue, in: 1...setting.maximum)
            switch setting {
            case .cpuMs: limits.cpuMs = value
            case .memoryMB: limits.memoryMB = value
            case .timeMs: limits.timeMs = value
            }
        }
        guard !limits.isEmpty else { throw malformed("'limits' is empty; leave it out to keep the host's") }
        self = limits
    }
}

extension Revocation {
    /// The revocation as JSON: `app`, `created`, `keyId`, `version`.
    public var jsonValue: JSONValue {
        .object(["app": .string(app), "version": .integer(Int64(version)), "created": .integer(created), "keyId": .string(keyID.description)])
    }

    /// Reads and checks a revocation's JSON.
    public init(json: JSONValue) throws(BundleRefusal) {
        let reader = try ObjectReader(json, "the revocation", keys: ["app", "version", "created", "keyId"])
        app = try reader.app()
        version = Int(try reader.integer("version", in: 1...Int64(BundleManifest.maximumVersion)))
        created = try reader.integer("created", in: 0...ManifestTime.latest)
        keyID = try reader.keyID()
    }
}

/// Times in manifests: whole seconds since 1970 UTC.
enum ManifestTime {
    /// The latest time a manifest may name (year 9999).
    static let latest: Int64 = 253_402_300_799
}

func malformed(_ message: String) -> BundleRefusal { BundleRefusal(.malformed, message) }

/// Reads an object's members, each once, refusing keys it does not know and missing ones.
struct ObjectReader {
    private var members: [String: JSONValue]
    private let what: String

    init(_ value: JSONValue, _ what: String, keys: [String], optional: [String] = []) throws(BundleRefusal) {
        guard case .object(let members) = value else { throw malformed("\(what) is not a JSON object") }
        let known = Set(keys).union(optional)
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw malformed("\(what) has the unknown key '\(unknown.prefix(40))'")
        }
        if let missing = keys.first(where: { members[$0] == nil }) {
            throw malformed("\(what) has no '\(missing)'")
        }
        self.members = members
        self.what = what
    }

    func has(_ key: String) -> Bool { members[key] != nil }

    func value(_ key: String) -> JSONValue? { members[key] }

    func string(_ key: String) throws(BundleRefusal) -> String {
        guard case .string(let s) = members[key] else { throw malformed("'\(key)' of \(what) is not a string") }
        return s
    }

    func integer(_ key: String, in range: ClosedRange<Int64>) throws(BundleRefusal) -> Int64 {
        guard case .integer(let n) = members[key] else { throw malformed("'\(key)' of \(what) is not an integer") }
        guard range.contains(n) else { throw malformed("'\(key)' of \(what) is \(n), outside \(range.lowerBound)...\(range.upperBound)") }
        return n
    }

    func app() throws(BundleRefusal) -> String {
        let app = try string("app")
        guard AppIdentifier.isValid(app) else {
            throw malformed("'app' is not a bundle identifier (ASCII letters, digits, '-' and '.', 1 to 255 bytes)")
        }
        return app
    }

    func keyID() throws(BundleRefusal) -> KeyID {
        let text = try string("keyId")
        guard let id = KeyID(hex: text) else { throw malformed("'keyId' is not 16 lower-case hex digits") }
        return id
    }

    func hosts(_ key: String) throws(BundleRefusal) -> [String]? {
        guard let value = members[key] else { return nil }
        guard case .array(let elements) = value else { throw malformed("'\(key)' is not an array of host names") }
        guard elements.count <= BundleManifest.maximumHosts else {
            throw malformed("'\(key)' lists \(elements.count) hosts; at most \(BundleManifest.maximumHosts)")
        }
        var hosts: [String] = []
        for element in elements {
            guard case .string(let host) = element, HostName.isValid(host) else {
                throw malformed("'\(key)' holds something that is not a lower-case host name")
            }
            if let last = hosts.last, last >= host { throw malformed("'\(key)' is not sorted, or lists a host twice") }
            hosts.append(host)
        }
        return hosts
    }
}

/// Bundle identifiers as bundles name apps.
enum AppIdentifier {
    static func isValid(_ app: String) -> Bool {
        let bytes = Array(app.utf8)
        guard (1...255).contains(bytes.count), bytes.first != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(c)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        }
    }
}

/// Host names as `allowHttp` and `allowPost` list them: lower case, `[a-z0-9.-]`, 1 to 253 bytes.
enum HostName {
    static func isValid(_ host: String) -> Bool {
        let bytes = Array(host.utf8)
        guard (1...253).contains(bytes.count) else { return false }
        return bytes.allSatisfy { c in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
                || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
        }
    }
}
