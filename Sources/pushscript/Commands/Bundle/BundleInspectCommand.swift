import Foundation
import NotificationModel
import ScriptBundles

/// `pushscript bundle inspect FILE`: the manifest as JSON.
enum BundleInspectCommand: Command {
    static let name = "bundle inspect"
    static let summary = "print a bundle's manifest (or a revocation) as JSON"
    static let description = """
        usage: pushscript bundle inspect FILE

        Prints the signed manifest of FILE as JSON (a revocation: its fields and "revocation":
        true): app, version, minimumHostVersion, created
        and expires (seconds since 1970 UTC), rollout, probation, limits, allowHttp, allowPost,
        keyId and files (path, kind, size, sha256). The signature is not checked: use
        'bundle verify' for that. Exit 1 with a 'refused: malformed: ...' line when FILE is
        not a bundle.
        """
    static let options: [Option] = []

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        let (path, bytes) = try BundleOptions.bundleFile(a, command: name)
        do {
            let parts = try BundleContainer.split(bytes)
            let document = try SignedDocument(signed: parts.signed)
            print(try document.jsonValue.jsonString(prettyPrinted: true))
            return .success
        } catch let refusal as BundleRefusal {
            print("\(refusal.description) (\(path))")
            return .failuresFound
        }
    }
}
