import Foundation
import NotificationModel
@testable import ScriptBundles
import ScriptHost

/// Keys, bundles and state folders for the tests.
enum TestBundles {
    /// A key from a fixed seed: a test key, never used for anything real.
    static func key(_ n: UInt8 = 1) -> SigningKey {
        SigningKey(seed: [UInt8](repeating: n, count: 32))!
    }

    static let app = "com.example.news"
    /// A time well inside every test bundle's validity.
    static let now: Int64 = 1_800_000_000

    /// A script that prefixes the title with `tag`.
    static func script(_ tag: String) -> String {
        "function didReceive(request, content) content.title = \"\(tag): \" .. content.title end\n"
    }

    /// A bundle of `files` (path → text; the script is `<app>.lua` unless given).
    static func bundle(
        version: Int, app: String = app, files: [String: String]? = nil, key: SigningKey = key(), rollout: Int = 100,
        probation: Int = 0, limits: RequestedLimits = RequestedLimits(), allowHTTP: [String]? = nil, allowPost: [String]? = nil,
        created: Int64 = now - 100, expires: Int64 = now + 86_400, minimumHostVersion: Int = ScriptHost.hostVersion
    ) -> [UInt8] {
        let files = files ?? ["\(app).lua": script("v\(version)")]
        let entries = files.keys.map { path in
            BundleFileEntry(path: path, kind: path.hasPrefix("media/") ? .media : (path == "\(app).lua" ? .script : .module), size: 0, sha256: "")
        }
        let manifest = BundleManifest(
            app: app, version: version, minimumHostVersion: minimumHostVersion, created: created, expires: expires, rollout: rollout,
            probation: probation, limits: limits, allowHTTP: allowHTTP, allowPost: allowPost, keyID: key.id, files: entries)
        return try! BundleWriter.bundle(manifest, contents: files.mapValues { Array($0.utf8) }, key: key)
    }

    static func revocation(version: Int, app: String = app, key: SigningKey = key()) -> [UInt8] {
        try! BundleWriter.revocation(Revocation(app: app, version: version, created: now, keyID: key.id), key: key)
    }

    static func trust(_ keys: SigningKey...) -> TrustedKeys {
        TrustedKeys((keys.isEmpty ? [key()] : keys).map(\.publicKey))
    }

    static func installer(_ state: URL, trust: TrustedKeys = trust(), ceiling: HostCeiling = HostCeiling()) -> BundleInstaller {
        BundleInstaller(stateDirectory: state, verifier: BundleVerifier(trust: trust), ceiling: ceiling)
    }

    /// Every file under `folder` with its bytes: what "the state is unchanged" compares.
    static func snapshot(_ folder: URL) -> [String: Data] {
        var out: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return out }
        for case let url as URL in walker {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            let relative = String(url.path.dropFirst(folder.path.count))
            out[relative] = isFolder.boolValue ? Data("<folder>".utf8) : (FileManager.default.contents(atPath: url.path) ?? Data())
        }
        return out
    }

    /// A payload.
    static func payload(_ title: String = "Hi") -> Payload {
        try! Payload(value: .object(["aps": .object(["alert": .object(["title": .string(title), "body": .string("b")]), "mutable-content": .integer(1)])]))
    }
}
