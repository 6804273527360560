/// SHA-256 and HMAC-SHA256 (`crypto.sha256`, `crypto.hmacSHA256`, a script's identity) through
/// a ``ScriptCrypto``.
enum Digest {
    /// The length of a SHA-256 digest in bytes.
    static let sha256Length = 32

    /// The SHA-256 digest of `data`; nil only when the library fails (out of memory) or gives a
    /// digest of another length.
    static func sha256(_ data: [UInt8], using crypto: any ScriptCrypto = PlatformCrypto.default) -> [UInt8]? {
        guard let digest = try? crypto.sha256(data), digest.count == sha256Length else { return nil }
        return digest
    }

    /// The HMAC-SHA256 of `data` under `key`; nil only when the library fails (out of memory)
    /// or gives a MAC of another length.
    static func hmacSHA256(key: [UInt8], data: [UInt8], using crypto: any ScriptCrypto = PlatformCrypto.default) -> [UInt8]? {
        guard let mac = try? crypto.hmacSHA256(key: key, data: data), mac.count == sha256Length else { return nil }
        return mac
    }
}
