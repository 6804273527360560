import Foundation
import ScriptBundles

/// `pushscript bundle revoke --app ID --version N --key KEY -o FILE`: the kill switch.
enum BundleRevokeCommand: Command {
    static let name = "bundle revoke"
    static let summary = "write a signed revocation of one version (the kill switch)"
    static let description = """
        usage: pushscript bundle revoke --app ID --version N --key KEY -o FILE

        Writes a revocation of the app's version N signed by KEY. Shipped and installed like a
        bundle ('bundle install FILE'), it takes version N out of service on every device that
        installs it, and refuses that version from then on; the last good version before it,
        or the baseline, serves again.
        """
    static let options = [BundleOptions.app, BundleOptions.version, BundleOptions.key, BundleOptions.out]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        if let extra = a.positionals.first {
            throw UsageError("pushscript bundle revoke: unexpected argument '\(extra)'; run 'pushscript bundle revoke --help'")
        }
        let app = try BundleOptions.required(a, BundleOptions.app, command: name, what: "the app's bundle identifier")
        guard BundleManifest.isValidApp(app) else {
            throw UsageError("pushscript bundle revoke: --app '\(app)' is not a bundle identifier; give letters, digits, '-' and '.'")
        }
        let version = try BundleOptions.number(a, BundleOptions.version, in: 1...BundleManifest.maximumVersion, command: name, what: "the version to revoke")
        let key = try BundleOptions.signingKey(a, command: name)
        let out = try BundleOptions.required(a, BundleOptions.out, command: name, what: "the revocation file to write")
        let bytes = try BundleWriter.revocation(Revocation(app: app, version: version, created: ManifestClock.now(), keyID: key.id), key: key)
        try BundleOptions.write(bytes, to: out, command: name)
        print("wrote \(out): a revocation of \(app) version \(version), signed by key \(key.id); install it with 'pushscript bundle install \(out)'")
        return .success
    }
}
