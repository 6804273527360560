import Foundation
import ScriptHost
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A key's id: the first 8 bytes of the SHA-256 of its raw public key, as 16 lower-case hex
/// digits. Bundles name the key that signed them by it.
public struct KeyID: Sendable, Hashable, CustomStringConvertible {
    /// The 8 bytes.
    public let bytes: [UInt8]

    /// The size of an id in bytes.
    public static let size = 8

    /// The id of a raw public key.
    public init(publicKey: [UInt8], crypto: any BundleCrypto = PlatformCrypto.shared) {
        bytes = Array(crypto.sha256(publicKey).prefix(Self.size))
    }

    /// An id from its 8 bytes; nil for another length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.size else { return nil }
        self.bytes = bytes
    }

    /// An id from its 16 hex digits; nil for anything else.
    public init?(hex: String) {
        guard let bytes = Hex.bytes(hex) else { return nil }
        self.init(bytes: bytes)
    }

    /// The 16 hex digits.
    public var description: String { Hex.string(bytes) }
}

/// A failure to read, make or write a key file, for a person.
public struct KeyFileError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public let message: String
    /// An error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An Ed25519 public key: what an app pins to trust the bundles signed by its private key.
///
/// Its file (`KEY.pub`) is one line of text: `pushscript-ed25519 <base64 of the 32-byte key>`.
public struct PublicKey: Sendable, Hashable {
    /// The raw 32-byte key.
    public let bytes: [UInt8]
    /// Its id.
    public let id: KeyID

    /// The first word of a public key file.
    public static let fileTag = "pushscript-ed25519"

    /// A key from its raw bytes; nil unless 32 bytes.
    public init?(bytes: [UInt8], crypto: any BundleCrypto = PlatformCrypto.shared) {
        guard bytes.count == CryptoSizes.key else { return nil }
        self.bytes = bytes
        self.id = KeyID(publicKey: bytes, crypto: crypto)
    }

    /// A key from the text of its file.
    public init(fileText text: String, crypto: any BundleCrypto = PlatformCrypto.shared) throws(KeyFileError) {
        let bytes = try Self.decodeLine(text, tag: Self.fileTag, what: "public key")
        guard let key = PublicKey(bytes: bytes, crypto: crypto) else {
            throw KeyFileError("the public key is not 32 bytes; give a KEY.pub that 'pushscript bundle keygen' wrote")
        }
        self = key
    }

    /// The key of a file.
    public init(contentsOf url: URL, crypto: any BundleCrypto = PlatformCrypto.shared) throws(KeyFileError) {
        let text = try Self.readText(url, limit: 1024)
        do { try self.init(fileText: text, crypto: crypto) } catch {
            throw KeyFileError("\(url.path): \(error.message)")
        }
    }

    /// The text of its file: one line.
    public var fileText: String { "\(Self.fileTag) \(Data(bytes).base64EncodedString())\n" }

    /// The bytes of a key file's one line, `TAG BASE64` (the newline at its end optional).
    static func decodeLine(_ text: String, tag: String, what: String) throws(KeyFileError) -> [UInt8] {
        var line = Substring(text)
        if line.hasSuffix("\n") { line = line.dropLast() }
        let words = line.split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 2, words[0] == tag else {
            throw KeyFileError("not a \(what) file: its one line must read '\(tag) BASE64'; give a file that 'pushscript bundle keygen' wrote")
        }
        guard case .success(let bytes) = Base64.decode(String(words[1])) else {
            throw KeyFileError("the \(what) is not base64; give a file that 'pushscript bundle keygen' wrote")
        }
        return bytes
    }

    /// A small text file, read whole.
    static func readText(_ url: URL, limit: Int) throws(KeyFileError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw KeyFileError("cannot read \(url.path); check the path")
        }
        guard data.count <= limit, let text = String(data: data, encoding: .utf8) else {
            throw KeyFileError("\(url.path) is not a key file; give a file that 'pushscript bundle keygen' wrote")
        }
        return text
    }
}

/// An Ed25519 private key: what signs bundles and revocations. Keep it off the build machine.
///
/// Its file (`KEY`, mode 0600) is one line: `pushscript-ed25519-private <base64 of the 32-byte
/// seed>`.
public struct SigningKey: Sendable {
    /// The 32-byte seed.
    public let seed: [UInt8]
    /// Its public key.
    public let publicKey: PublicKey

    /// The first word of a private key file.
    public static let fileTag = "pushscript-ed25519-private"

    /// A key from its seed; nil unless 32 bytes the library takes.
    public init?(seed: [UInt8], crypto: any BundleCrypto = PlatformCrypto.shared) {
        guard seed.count == CryptoSizes.key, let raw = crypto.publicKey(ofPrivateKey: seed),
              let publicKey = PublicKey(bytes: raw, crypto: crypto) else { return nil }
        self.seed = seed
        self.publicKey = publicKey
    }

    /// A new key from the system's random number generator.
    public static func generate(crypto: any BundleCrypto = PlatformCrypto.shared) -> SigningKey {
        var generator = SystemRandomNumberGenerator()
        while true {
            let seed = (0..<CryptoSizes.key).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let key = SigningKey(seed: seed, crypto: crypto) { return key }
        }
    }

    /// A key from the text of its file.
    public init(fileText text: String, crypto: any BundleCrypto = PlatformCrypto.shared) throws(KeyFileError) {
        let seed = try PublicKey.decodeLine(text, tag: Self.fileTag, what: "private key")
        guard let key = SigningKey(seed: seed, crypto: crypto) else {
            throw KeyFileError("the private key is not a 32-byte Ed25519 seed; give a KEY that 'pushscript bundle keygen' wrote")
        }
        self = key
    }

    /// The key of a file.
    public init(contentsOf url: URL, crypto: any BundleCrypto = PlatformCrypto.shared) throws(KeyFileError) {
        let text = try PublicKey.readText(url, limit: 1024)
        do { try self.init(fileText: text, crypto: crypto) } catch {
            throw KeyFileError("\(url.path): \(error.message)")
        }
    }

    /// The text of its file: one line.
    public var fileText: String { "\(Self.fileTag) \(Data(seed).base64EncodedString())\n" }

    /// Its id.
    public var id: KeyID { publicKey.id }

    /// The signature of `message`.
    public func sign(_ message: [UInt8], crypto: any BundleCrypto = PlatformCrypto.shared) -> [UInt8]? {
        crypto.sign(message, privateKey: seed)
    }

    /// Writes `KEY` (mode 0600) and `KEY.pub`; refuses to replace a file that exists.
    public func write(to url: URL) throws(KeyFileError) {
        let publicURL = URL(fileURLWithPath: url.path + ".pub")
        for file in [url, publicURL] where FileManager.default.fileExists(atPath: file.path) {
            throw KeyFileError("\(file.path) exists; give another path or remove it (a key is never replaced)")
        }
        try Self.create(url, Array(fileText.utf8), mode: 0o600)
        do { try Self.create(publicURL, Array(publicKey.fileText.utf8), mode: 0o644) } catch {
            unlink(url.path)
            throw error
        }
    }

    private static func create(_ url: URL, _ bytes: [UInt8], mode: mode_t) throws(KeyFileError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else {
            throw KeyFileError("cannot write \(url.path): \(String(cString: strerror(errno))); check that its folder exists and is writable")
        }
        defer { close(fd) }
        // The mode asked for, whatever the umask.
        fchmod(fd, mode)
        guard writeAll(fd, bytes) else {
            let reason = String(cString: strerror(errno))
            unlink(url.path)
            throw KeyFileError("cannot write \(url.path): \(reason)")
        }
    }
}

/// The public keys a host trusts: a bundle or revocation signed by any of them is accepted.
/// Trusting two keys at once is how a team rotates its key.
public struct TrustedKeys: Sendable {
    /// The keys by id.
    public let keys: [KeyID: PublicKey]

    /// A set of trusted keys.
    public init(_ keys: [PublicKey]) {
        var byID: [KeyID: PublicKey] = [:]
        for key in keys { byID[key.id] = key }
        self.keys = byID
    }

    /// The keys of `KEY.pub` files.
    public init(files: [URL], crypto: any BundleCrypto = PlatformCrypto.shared) throws(KeyFileError) {
        var keys: [PublicKey] = []
        for file in files { keys.append(try PublicKey(contentsOf: file, crypto: crypto)) }
        self.init(keys)
    }

    /// The key with this id, if trusted.
    public func key(_ id: KeyID) -> PublicKey? { keys[id] }

    /// The ids, sorted, for messages.
    var idList: String { keys.keys.map(\.description).sorted().joined(separator: ", ") }
}
