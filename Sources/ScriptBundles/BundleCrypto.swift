/// The cryptography bundles need: Ed25519 signatures and SHA-256, behind a small protocol so
/// that each platform supplies its own library (OpenSSL's libcrypto on Linux, CryptoKit's
/// `Curve25519.Signing` and `SHA256` in an Apple build).
///
/// Keys are raw bytes: a private key is its 32-byte seed (RFC 8032), a public key its 32-byte
/// encoding; a signature is 64 bytes.
public protocol BundleCrypto: Sendable {
    /// The public key of a private key's 32-byte seed; nil when the library refuses it.
    func publicKey(ofPrivateKey seed: [UInt8]) -> [UInt8]?
    /// The Ed25519 signature of `message` by the private key `seed`; nil when the library fails.
    func sign(_ message: [UInt8], privateKey seed: [UInt8]) -> [UInt8]?
    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool
    /// The SHA-256 digest of `bytes` (32 bytes).
    func sha256(_ bytes: [UInt8]) -> [UInt8]
}

/// The sizes of Ed25519 keys and signatures and of SHA-256 digests.
public enum CryptoSizes {
    /// A private key's seed and a public key: 32 bytes.
    public static let key = 32
    /// A signature: 64 bytes.
    public static let signature = 64
    /// A SHA-256 digest: 32 bytes.
    public static let digest = 32
}

extension BundleCrypto {
    /// The SHA-256 of `bytes` in lower-case hex.
    public func sha256Hex(_ bytes: [UInt8]) -> String { Hex.string(sha256(bytes)) }
}

/// The platform's cryptography: OpenSSL's libcrypto where it is linked, else CryptoKit.
public enum PlatformCrypto {
    /// The implementation this build has.
    public static var shared: any BundleCrypto {
        #if canImport(CCrypto)
        return OpenSSLBundleCrypto()
        #elseif canImport(CryptoKit)
        return CryptoKitBundleCrypto()
        #else
        fatalError("ScriptBundles needs OpenSSL's libcrypto or CryptoKit")
        #endif
    }
}

/// Lower-case hex.
enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    static func string(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of lower-case hex text; nil for anything else (odd length, upper case, other
    /// characters).
    static func bytes(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func value(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
