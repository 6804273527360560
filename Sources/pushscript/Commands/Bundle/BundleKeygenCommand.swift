import Foundation
import ScriptBundles

/// `pushscript bundle keygen --out KEY`: a new signing key.
enum BundleKeygenCommand: Command {
    static let name = "bundle keygen"
    static let summary = "write a new signing key (KEY, mode 0600) and its public key (KEY.pub)"
    static let description = """
        usage: pushscript bundle keygen --out KEY

        Writes a new Ed25519 private key to KEY (mode 0600) and its public key to KEY.pub,
        and prints the key's id. Sign bundles with KEY on a machine of its own, not the build
        machine; pin KEY.pub in the app (--trust KEY.pub). An existing file is never replaced.
        """
    static let out = Option("--out", "KEY", help: "where to write the private key; KEY.pub beside it (required)")
    static let options = [out]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        if let extra = a.positionals.first {
            throw UsageError("pushscript bundle keygen: unexpected argument '\(extra)'; give the key's path with --out KEY")
        }
        let path = try BundleOptions.required(a, out, command: name, what: "where to write the private key")
        for file in [path, path + ".pub"] where FileManager.default.fileExists(atPath: file) {
            throw UsageError("pushscript bundle keygen: \(file) exists; give another path or remove it (a key is never replaced)")
        }
        let key = SigningKey.generate()
        do { try key.write(to: URL(fileURLWithPath: path)) } catch {
            throw UsageError("pushscript bundle keygen: \(error.message)")
        }
        print("key \(key.id): wrote \(path) (private, mode 0600: keep it off the build machine) and \(path).pub (public: pin it in the app)")
        return .success
    }
}
