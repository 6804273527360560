import Foundation
import ScriptBundles
import ScriptHost

/// Options and readers the `bundle` subcommands share.
enum BundleOptions {
    static let trust = Option("--trust", "KEY.pub", repeatable: true, help: "a public key whose bundles are trusted (repeatable;", "trusting two keys is how a key is rotated)")
    static let key = Option("--key", "KEY", help: "the private key to sign with (required)")
    static let out = Option("-o", "FILE", help: "where to write it (required)")
    static let app = Option("--app", "ID", help: "the app's bundle identifier (required)")
    static let version = Option("--version", "N", help: "the version, a whole number above every version before it (required)")

    /// The trusted keys of `--trust`; at least one.
    static func trustedKeys(_ a: ParsedArguments, command: String) throws(UsageError) -> TrustedKeys {
        let files = a.all(trust)
        guard !files.isEmpty else {
            throw UsageError("pushscript \(command): give --trust KEY.pub, the public key the bundle must be signed by")
        }
        do { return try TrustedKeys(files: files.map { URL(fileURLWithPath: $0) }) } catch {
            throw UsageError("pushscript \(command): --trust \(error.message)")
        }
    }

    /// The private key of `--key`.
    static func signingKey(_ a: ParsedArguments, command: String) throws(UsageError) -> SigningKey {
        guard let path = a.value(key) else {
            throw UsageError("pushscript \(command): give --key KEY, the private key that 'pushscript bundle keygen' wrote")
        }
        do { return try SigningKey(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw UsageError("pushscript \(command): --key \(error.message)")
        }
    }

    /// A required value.
    static func required(_ a: ParsedArguments, _ option: Option, command: String, what: String) throws(UsageError) -> String {
        guard let value = a.value(option), !value.isEmpty else {
            throw UsageError("pushscript \(command): give \(option.name) \(option.valueName), \(what)")
        }
        return value
    }

    /// A whole number within `range`, or `defaultValue` when the option is not given.
    static func number(_ a: ParsedArguments, _ option: Option, in range: ClosedRange<Int>, default defaultValue: Int? = nil, command: String, what: String) throws(UsageError) -> Int {
        guard let text = a.value(option) else {
            if let defaultValue { return defaultValue }
            throw UsageError("pushscript \(command): give \(option.name) \(option.valueName), \(what)")
        }
        guard let n = Int(text), range.contains(n) else {
            throw UsageError("pushscript \(command): \(option.name) takes a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
        }
        return n
    }

    /// The one positional FILE, read whole (at most a bundle's largest size).
    static func bundleFile(_ a: ParsedArguments, command: String) throws(UsageError) -> (path: String, bytes: [UInt8]) {
        guard a.positionals.count == 1 else {
            throw UsageError("pushscript \(command): expected one FILE, got \(a.positionals.count) arguments; run 'pushscript \(command) --help'")
        }
        let path = a.positionals[0]
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue
        guard let size, let handle = try? FileHandle(forReadingFrom: url) else {
            throw UsageError("pushscript \(command): cannot read \(path); check the path")
        }
        defer { try? handle.close() }
        // A file larger than any bundle is read no further than that: it is refused as such.
        let limit = min(size, BundleContainer.maximumSize + 1)
        guard let data = try? handle.read(upToCount: limit) ?? Data() else {
            throw UsageError("pushscript \(command): cannot read \(path); check the path")
        }
        return (path, [UInt8](data))
    }

    /// Writes a new file whole; a usage error when it cannot be.
    static func write(_ bytes: [UInt8], to path: String, command: String) throws(UsageError) {
        do { try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
            throw UsageError("pushscript \(command): cannot write \(path); check that its folder exists and is writable")
        }
    }

    /// A size for a person: bytes, KB or MB.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) bytes" }
        if bytes < 1_000_000 { return String(format: "%.1f KB", Double(bytes) / 1000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
