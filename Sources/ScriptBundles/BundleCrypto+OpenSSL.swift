#if canImport(COpenSSL)
import COpenSSL

/// Ed25519 and SHA-256 through OpenSSL's libcrypto (`EVP_PKEY_ED25519`, `EVP_DigestSign`,
/// `EVP_Digest`).
public struct OpenSSLBundleCrypto: BundleCrypto {
    /// The libcrypto implementation.
    public init() {}

    public func publicKey(ofPrivateKey seed: [UInt8]) -> [UInt8]? {
        guard seed.count == CryptoSizes.key, let key = Self.privateKey(seed) else { return nil }
        defer { EVP_PKEY_free(key) }
        var out = [UInt8](repeating: 0, count: CryptoSizes.key)
        var length = out.count
        guard EVP_PKEY_get_raw_public_key(key, &out, &length) == 1, length == CryptoSizes.key else { return nil }
        return out
    }

    public func sign(_ message: [UInt8], privateKey seed: [UInt8]) -> [UInt8]? {
        guard seed.count == CryptoSizes.key, let key = Self.privateKey(seed) else { return nil }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, nil, nil, key) == 1 else { return nil }
        var signature = [UInt8](repeating: 0, count: CryptoSizes.signature)
        var length = signature.count
        let ok = Self.withNonNullBytes(message) { bytes in
            EVP_DigestSign(context, &signature, &length, bytes, message.count) == 1
        }
        guard ok, length == CryptoSizes.signature else { return nil }
        return signature
    }

    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard signature.count == CryptoSizes.signature, publicKey.count == CryptoSizes.key else { return false }
        guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, publicKey, publicKey.count) else { return false }
        defer { EVP_PKEY_free(key) }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1 else { return false }
        return Self.withNonNullBytes(message) { bytes in
            EVP_DigestVerify(context, signature, signature.count, bytes, message.count) == 1
        }
    }

    public func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = Self.withNonNullBytes(bytes) { pointer in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(pointer, bytes.count, $0.baseAddress, &length, EVP_sha256(), nil) == 1 }
        }
        // EVP_Digest fails only when it cannot allocate its context: nothing sensible goes on.
        precondition(ok && Int(length) == CryptoSizes.digest, "SHA-256 failed in libcrypto")
        return Array(digest[0..<CryptoSizes.digest])
    }

    private static func privateKey(_ seed: [UInt8]) -> OpaquePointer? {
        EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nil, seed, seed.count)
    }

    /// Calls `body` with a pointer that is never null, even for no bytes.
    private static func withNonNullBytes<T>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>) -> T) -> T {
        if bytes.isEmpty {
            let empty: [UInt8] = [0]
            return empty.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
#endif
