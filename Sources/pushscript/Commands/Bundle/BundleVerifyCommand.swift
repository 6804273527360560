import Foundation
import ScriptBundles

/// `pushscript bundle verify FILE --trust KEY.pub...`: checks a bundle as an install would.
enum BundleVerifyCommand: Command {
    static let name = "bundle verify"
    static let summary = "check a bundle's signature, files and expiry"
    static let description = """
        usage: pushscript bundle verify FILE --trust KEY.pub...

        Checks FILE (a bundle or a revocation) as 'bundle install' does before it writes
        anything: its format, that a trusted key signed it, that every file is the one its
        manifest lists, that it has not expired, and that this host is new enough. Prints one
        line: 'verified: ...' (exit 0) or 'refused: REASON: ...' (exit 1), REASON one of
        malformed, unknown key, bad signature, file does not match, expired, host too old.
        """
    static let options = [BundleOptions.trust]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        let trust = try BundleOptions.trustedKeys(a, command: name)
        let (path, bytes) = try BundleOptions.bundleFile(a, command: name)
        do {
            switch try BundleVerifier(trust: trust).verify(bytes) {
            case .bundle(let bundle):
                let m = bundle.manifest
                print("verified: \(path): \(m.app) version \(m.version), \(m.files.count) file\(m.files.count == 1 ? "" : "s") (\(BundleOptions.size(m.totalSize))), signed by key \(m.keyID), expires \(ManifestClock.text(m.expires))")
            case .revocation(let r):
                print("verified: \(path): a revocation of \(r.app) version \(r.version), signed by key \(r.keyID)")
            }
            return .success
        } catch {
            print("\(error.description) (\(path))")
            return .failuresFound
        }
    }
}
