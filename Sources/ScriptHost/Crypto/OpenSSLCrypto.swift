#if canImport(COpenSSL)
import COpenSSL

/// ``ScriptCrypto`` through OpenSSL's libcrypto: the platform's implementation where the
/// package links it (Linux). It only calls the library.
struct OpenSSLCrypto: ScriptCrypto {
    func open(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { throw .failed }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var tag = tag
        var ok = EVP_DecryptInit_ex(context, Self.cipher(algorithm), nil, nil, nil) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1
        ok = ok && EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1
        ok = ok && Self.update(context, decrypt: true, input: aad, output: nil) != nil
        var written = 0
        if ok, let n = Self.update(context, decrypt: true, input: ciphertext, output: &output) { written = n } else { ok = false }
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tag.count), &tag) == 1
        guard ok else {
            Self.wipe(&output)
            throw .failed
        }
        var last: Int32 = 0
        let verified = output.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(context, buffer.baseAddress! + written, &last) == 1
        }
        guard verified else {
            Self.wipe(&output)
            throw .authenticationFailed
        }
        return Array(output[0..<(written + Int(last))])
    }

    func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = Self.withNonNullBytes(data) { bytes in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(bytes, data.count, $0.baseAddress, &length, EVP_sha256(), nil) == 1 }
        }
        guard ok else { throw .failed }
        return Array(digest[0..<Int(length)])
    }

    func hmacSHA256(key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count <= Int(Int32.max) else { throw .failed }
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = Self.withNonNullBytes(key) { keyBytes in
            Self.withNonNullBytes(data) { dataBytes in
                mac.withUnsafeMutableBufferPointer { out in
                    HMAC(EVP_sha256(), keyBytes, Int32(key.count), dataBytes, data.count, out.baseAddress, &length) != nil
                }
            }
        }
        guard ok else { throw .failed }
        return Array(mac[0..<Int(length)])
    }

    /// Encrypts: the ciphertext and its 16-byte tag (for tests and for making examples; the
    /// script API only decrypts).
    func seal(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], plaintext: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        guard let context = EVP_CIPHER_CTX_new() else { throw .failed }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: AEADAlgorithm.tagLength)
        var ok = EVP_EncryptInit_ex(context, Self.cipher(algorithm), nil, nil, nil) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1
        ok = ok && EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1
        ok = ok && Self.update(context, decrypt: false, input: aad, output: nil) != nil
        var written = 0
        if ok, let n = Self.update(context, decrypt: false, input: plaintext, output: &output) { written = n } else { ok = false }
        var last: Int32 = 0
        ok = ok && output.withUnsafeMutableBufferPointer { EVP_EncryptFinal_ex(context, $0.baseAddress! + written, &last) == 1 }
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tag.count), &tag) == 1
        guard ok else { throw .failed }
        return (Array(output[0..<(written + Int(last))]), tag)
    }

    private static func cipher(_ algorithm: AEADAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .aes128GCM: EVP_aes_128_gcm()
        case .aes256GCM: EVP_aes_256_gcm()
        case .chacha20Poly1305: EVP_chacha20_poly1305()
        }
    }

    /// Feeds `input` (skipped when empty); with a nil `output` it is associated data. Returns
    /// the bytes written, nil on failure.
    private static func update(_ context: OpaquePointer, decrypt: Bool, input: [UInt8], output: UnsafeMutablePointer<[UInt8]>?) -> Int? {
        guard !input.isEmpty else { return 0 }
        guard input.count <= Int(Int32.max) else { return nil }
        var written: Int32 = 0
        let ok = input.withUnsafeBufferPointer { source -> Bool in
            if let output {
                return output.pointee.withUnsafeMutableBufferPointer { target in
                    decrypt
                        ? EVP_DecryptUpdate(context, target.baseAddress, &written, source.baseAddress, Int32(source.count)) == 1
                        : EVP_EncryptUpdate(context, target.baseAddress, &written, source.baseAddress, Int32(source.count)) == 1
                }
            }
            return decrypt
                ? EVP_DecryptUpdate(context, nil, &written, source.baseAddress, Int32(source.count)) == 1
                : EVP_EncryptUpdate(context, nil, &written, source.baseAddress, Int32(source.count)) == 1
        }
        return ok ? Int(written) : nil
    }

    /// Overwrites a buffer that may hold unauthenticated plaintext.
    private static func wipe(_ buffer: inout [UInt8]) {
        for i in buffer.indices { buffer[i] = 0 }
    }

    /// Calls `body` with a pointer that is never null, even for no bytes (OpenSSL refuses a
    /// null key or message pointer in some versions).
    private static func withNonNullBytes<T>(_ bytes: [UInt8], _ body: (UnsafePointer<UInt8>) -> T) -> T {
        if bytes.isEmpty {
            let empty: [UInt8] = [0]
            return empty.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
        return bytes.withUnsafeBufferPointer { body($0.baseAddress!) }
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
