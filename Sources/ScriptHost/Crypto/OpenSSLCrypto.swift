#if canImport(CCrypto)
import CCrypto

/// ``ScriptCrypto`` through OpenSSL's libcrypto, opened on first use (`Sources/CCrypto`): the
/// platform's implementation where the package has it (Linux). It only calls the library.
struct OpenSSLCrypto: ScriptCrypto {
    func open(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var length = 0
        let result = output.withUnsafeMutableBufferPointer { out in
            ps_crypto_aead_open(
                Self.cipher(algorithm), key, key.count, nonce, nonce.count, aad, aad.count,
                ciphertext, ciphertext.count, tag, tag.count, out.baseAddress, &length)
        }
        switch Int(result) {
        case Int(PS_CRYPTO_OK): return Array(output[0..<length])
        case Int(PS_CRYPTO_UNAUTHENTICATED): throw .authenticationFailed
        default: throw .failed
        }
    }

    func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        guard ps_crypto_sha256(data, data.count, &digest) == Int32(PS_CRYPTO_OK) else { throw .failed }
        return digest
    }

    func hmacSHA256(key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: 32)
        guard ps_crypto_hmac_sha256(key, key.count, data, data.count, &mac) == Int32(PS_CRYPTO_OK) else { throw .failed }
        return mac
    }

    /// Encrypts: the ciphertext and its 16-byte tag (for tests and for making examples; the
    /// script API only decrypts).
    func seal(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], plaintext: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: AEADAlgorithm.tagLength)
        var length = 0
        let result = output.withUnsafeMutableBufferPointer { out in
            ps_crypto_aead_seal(
                Self.cipher(algorithm), key, key.count, nonce, nonce.count, aad, aad.count,
                plaintext, plaintext.count, out.baseAddress, &length, &tag)
        }
        guard result == Int32(PS_CRYPTO_OK) else { throw .failed }
        return (Array(output[0..<length]), tag)
    }

    private static func cipher(_ algorithm: AEADAlgorithm) -> Int32 {
        switch algorithm {
        case .aes128GCM: Int32(PS_CRYPTO_AES128_GCM)
        case .aes256GCM: Int32(PS_CRYPTO_AES256_GCM)
        case .chacha20Poly1305: Int32(PS_CRYPTO_CHACHA20_POLY1305)
        }
    }
}

extension AEAD {
    /// Encrypts through OpenSSL after the checks `open` makes (for tests and for making
    /// examples).
    static func seal(
        _ algorithm: Algorithm, key: [UInt8], nonce: [UInt8], plaintext: [UInt8], aad: [UInt8]
    ) throws(Failure) -> (ciphertext: [UInt8], tag: [UInt8]) {
        try check(algorithm, key: key, nonce: nonce)
        do { return try OpenSSLCrypto().seal(algorithm, key: key, nonce: nonce, plaintext: plaintext, aad: aad) } catch {
            throw .library
        }
    }
}
#endif
