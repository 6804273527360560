#if canImport(CCrypto)
import CCrypto

/// Ed25519 and SHA-256 through OpenSSL's libcrypto, opened on first use (`Sources/CCrypto`).
public struct OpenSSLBundleCrypto: BundleCrypto {
    /// The libcrypto implementation.
    public init() {}

    public func publicKey(ofPrivateKey seed: [UInt8]) -> [UInt8]? {
        guard seed.count == CryptoSizes.key else { return nil }
        var key = [UInt8](repeating: 0, count: CryptoSizes.key)
        guard ps_crypto_ed25519_public_key(seed, &key) == Int32(PS_CRYPTO_OK) else { return nil }
        return key
    }

    public func sign(_ message: [UInt8], privateKey seed: [UInt8]) -> [UInt8]? {
        guard seed.count == CryptoSizes.key else { return nil }
        var signature = [UInt8](repeating: 0, count: CryptoSizes.signature)
        guard ps_crypto_ed25519_sign(seed, message, message.count, &signature) == Int32(PS_CRYPTO_OK) else { return nil }
        return signature
    }

    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == CryptoSizes.signature, publicKey.count == CryptoSizes.key else { return false }
        return ps_crypto_ed25519_verify(publicKey, message, message.count, signature) == Int32(PS_CRYPTO_OK)
    }

    public func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: CryptoSizes.digest)
        // It fails only when the library cannot be loaded or cannot allocate: nothing sensible
        // goes on.
        let ok = ps_crypto_sha256(bytes, bytes.count, &digest) == Int32(PS_CRYPTO_OK)
        precondition(ok, "SHA-256 failed: \(ps_crypto_load_error().map { String(cString: $0) } ?? "libcrypto could not allocate")")
        return digest
    }
}
#endif
