import Foundation
import NotificationModel

/// A state file that is not what the installer writes.
struct StateFormatError: Error {
    let message: String
}

extension InstalledState {
    var jsonValue: JSONValue {
        .object([
            "app": .string(app),
            "highest": .integer(Int64(highest)),
            "good": .array(good.map(\.jsonValue)),
            "candidate": candidate?.jsonValue ?? .null,
            "rolledBack": .array(rolledBack.map(\.jsonValue)),
            "revoked": .array(revoked.map(\.jsonValue)),
            "generation": .integer(Int64(generation)),
        ])
    }

    init(json: JSONValue) throws(StateFormatError) {
        let o = try StateJSON(json)
        app = try o.string("app")
        highest = try o.int("highest")
        good = try o.array("good").map { v throws(StateFormatError) in try InstalledVersion(json: v) }
        candidate = try o.optional("candidate").map { v throws(StateFormatError) in try InstalledVersion(json: v) }
        rolledBack = try o.array("rolledBack").map { v throws(StateFormatError) in try RolledBackVersion(json: v) }
        revoked = try o.array("revoked").map { v throws(StateFormatError) in try RevokedVersion(json: v) }
        generation = try o.int("generation")
    }

    /// Reads a state file's bytes.
    static func decode(_ data: Data) throws(StateFormatError) -> InstalledState {
        do { return try InstalledState(json: try JSONValue(jsonData: data)) } catch let error as StateFormatError {
            throw error
        } catch {
            throw StateFormatError(message: "\(error)")
        }
    }

    /// The file's bytes.
    func encoded() -> Data {
        (try? jsonValue.jsonData(prettyPrinted: true)) ?? Data()
    }
}

extension InstalledVersion {
    var jsonValue: JSONValue {
        .object([
            "version": .integer(Int64(version)), "sha256": .string(sha256), "keyId": .string(keyID.description),
            "rollout": .integer(Int64(rollout)), "probation": .integer(Int64(probation)), "draw": .integer(Int64(draw)),
            "installed": .integer(installed),
        ])
    }

    init(json: JSONValue) throws(StateFormatError) {
        let o = try StateJSON(json)
        version = try o.int("version")
        sha256 = try o.string("sha256")
        guard let id = KeyID(hex: try o.string("keyId")) else { throw StateFormatError(message: "a keyId is not 16 hex digits") }
        keyID = id
        rollout = try o.int("rollout")
        probation = try o.int("probation")
        draw = try o.int("draw")
        installed = Int64(try o.int("installed"))
    }
}

extension RolledBackVersion {
    var jsonValue: JSONValue {
        .object(["version": version.jsonValue, "at": .integer(at), "record": record.jsonValue])
    }

    init(json: JSONValue) throws(StateFormatError) {
        let o = try StateJSON(json)
        version = try InstalledVersion(json: o.value("version"))
        at = Int64(try o.int("at"))
        record = try ProbationRecord(json: o.value("record"))
    }
}

extension RevokedVersion {
    var jsonValue: JSONValue {
        .object(["version": .integer(Int64(version)), "at": .integer(at), "keyId": .string(keyID.description), "created": .integer(created)])
    }

    init(json: JSONValue) throws(StateFormatError) {
        let o = try StateJSON(json)
        version = try o.int("version")
        at = Int64(try o.int("at"))
        guard let id = KeyID(hex: try o.string("keyId")) else { throw StateFormatError(message: "a keyId is not 16 hex digits") }
        keyID = id
        created = Int64(try o.int("created"))
    }
}

extension ProbationRecord {
    var jsonValue: JSONValue {
        .object([
            "counts": counts.jsonValue, "probation": .integer(Int64(probation)),
            "previousVersion": previousVersion.map { .integer(Int64($0)) } ?? .null, "previous": previous.jsonValue,
        ])
    }

    init(json: JSONValue) throws(StateFormatError) {
        let o = try StateJSON(json)
        counts = try DeliveryCounts(json: o.value("counts"))
        probation = try o.int("probation")
        previousVersion = try o.optional("previousVersion").map { v throws(StateFormatError) in
            guard case .integer(let n) = v else { throw StateFormatError(message: "previousVersion is not an integer") }
            return Int(n)
        }
        previous = try DeliveryCounts(json: o.value("previous"))
    }
}

extension DeliveryCounts {
    /// The counts as JSON: `deliveries`, `completed`, `fallbacks` (by kind), and
    /// `firstFailure` (`{"kind", "message"}`) once there is one.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "deliveries": .integer(Int64(deliveries)), "completed": .integer(Int64(completed)),
            "fallbacks": .object(fallbacks.mapValues { .integer(Int64($0)) }),
        ]
        if let firstFailure { object["firstFailure"] = .object(["kind": .string(firstFailure.kind), "message": .string(firstFailure.message)]) }
        return .object(object)
    }

    init(json: JSONValue) throws(StateFormatError) {
        let o = try StateJSON(json)
        self.init()
        deliveries = try o.int("deliveries")
        completed = try o.int("completed")
        guard case .object(let kinds) = o.value("fallbacks") else { throw StateFormatError(message: "fallbacks is not an object") }
        for (kind, value) in kinds {
            guard case .integer(let n) = value, n >= 0 else { throw StateFormatError(message: "a fallback count is not a whole number") }
            fallbacks[kind] = Int(n)
        }
        if let note = try o.optional("firstFailure") {
            let n = try StateJSON(note)
            firstFailure = FailureNote(kind: try n.string("kind"), message: try n.string("message"))
        }
    }
}

/// The counts of an app's versions on a device (`DIR/<app>.bundle-counts.json`).
struct AppCounts: Sendable, Hashable {
    /// By version: `baseline` or the version's number.
    var versions: [String: DeliveryCounts] = [:]
    /// The SHA-256 of the baseline script seen last.
    var baselineSHA256: String?

    static func key(_ version: Int?) -> String { version.map(String.init) ?? "baseline" }

    subscript(version: Int?) -> DeliveryCounts {
        get { versions[Self.key(version)] ?? DeliveryCounts() }
        set { versions[Self.key(version)] = newValue }
    }

    var jsonValue: JSONValue {
        .object([
            "versions": .object(versions.mapValues(\.jsonValue)),
            "baselineSha256": baselineSHA256.map { .string($0) } ?? .null,
        ])
    }

    init() {}

    init(json: JSONValue) throws(StateFormatError) {
        let o = try StateJSON(json)
        guard case .object(let members) = o.value("versions") else { throw StateFormatError(message: "versions is not an object") }
        for (key, value) in members { versions[key] = try DeliveryCounts(json: value) }
        if case .string(let sha)? = try o.optional("baselineSha256") { baselineSHA256 = sha }
    }

    static func decode(_ data: Data?) -> AppCounts {
        guard let data, let json = try? JSONValue(jsonData: data), let counts = try? AppCounts(json: json) else { return AppCounts() }
        return counts
    }

    func encoded() -> Data { (try? jsonValue.jsonData()) ?? Data() }
}

/// Reads the members of a state file's objects.
struct StateJSON {
    let members: [String: JSONValue]

    init(_ value: JSONValue) throws(StateFormatError) {
        guard case .object(let members) = value else { throw StateFormatError(message: "a \(value.kindName) where an object belongs") }
        self.members = members
    }

    func value(_ key: String) -> JSONValue { members[key] ?? .null }

    func optional(_ key: String) throws(StateFormatError) -> JSONValue? {
        guard let value = members[key], !value.isNull else { return nil }
        return value
    }

    func string(_ key: String) throws(StateFormatError) -> String {
        guard case .string(let s) = members[key] else { throw StateFormatError(message: "'\(key)' is not a string") }
        return s
    }

    func int(_ key: String) throws(StateFormatError) -> Int {
        guard case .integer(let n) = members[key] else { throw StateFormatError(message: "'\(key)' is not an integer") }
        return Int(n)
    }

    func array(_ key: String) throws(StateFormatError) -> [JSONValue] {
        guard case .array(let a) = members[key] else { throw StateFormatError(message: "'\(key)' is not an array") }
        return a
    }
}
