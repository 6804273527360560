import COpenSSL

/// Authenticated encryption with associated data through OpenSSL's libcrypto: the algorithms
/// `crypto.decrypt` takes. Nothing here is cryptography of its own; it only checks lengths and
/// calls the library.
enum AEAD {
    /// An algorithm by its script name.
    enum Algorithm: String, CaseIterable, Sendable {
        case aes128GCM = "aes-128-gcm"
        case aes256GCM = "aes-256-gcm"
        case chacha20Poly1305 = "chacha20-poly1305"

        /// The key length in bytes.
        var keyLength: Int {
            switch self {
            case .aes128GCM: 16
            case .aes256GCM, .chacha20Poly1305: 32
            }
        }

        /// The nonce lengths taken, as CryptoKit takes them: 12 bytes or more for AES-GCM
        /// (at most 256 here), exactly 12 for ChaCha20-Poly1305.
        var nonceLengths: ClosedRange<Int> {
            switch self {
            case .aes128GCM, .aes256GCM: 12...256
            case .chacha20Poly1305: 12...12
            }
        }

        /// The tag length in bytes: the full 16 for every algorithm.
        static let tagLength = 16

        /// The names scripts may give, for messages.
        static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

        fileprivate var cipher: OpaquePointer? {
            switch self {
            case .aes128GCM: EVP_aes_128_gcm()
            case .aes256GCM: EVP_aes_256_gcm()
            case .chacha20Poly1305: EVP_chacha20_poly1305()
            }
        }
    }

    /// Why a decryption gave nothing. Only ``authenticationFailed`` can come from the data
    /// itself; the others are lengths that the algorithm does not take.
    enum Failure: Error, Equatable {
        case keyLength(Algorithm, Int)
        case nonceLength(Algorithm, Int)
        case tagLength(Int)
        case authenticationFailed
        case library

        /// The message a script gets.
        var message: String {
            switch self {
            case .keyLength(let a, let n): return "\(a.rawValue) takes a \(a.keyLength)-byte key, not \(n) bytes"
            case .nonceLength(let a, let n):
                let range = a.nonceLengths
                let wanted = range.count == 1 ? "a \(range.lowerBound)-byte nonce" : "a nonce of \(range.lowerBound) to \(range.upperBound) bytes"
                return "\(a.rawValue) takes \(wanted), not \(n) bytes"
            case .tagLength(let n): return "the tag must be \(Algorithm.tagLength) bytes, not \(n)"
            case .authenticationFailed: return "authentication failed"
            case .library: return "the cipher could not be set up"
            }
        }
    }

    /// Decrypts and authenticates. Returns the plaintext only when the tag matches the key,
    /// nonce, ciphertext and associated data; never a partial plaintext.
    static func open(
        _ algorithm: Algorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8]
    ) throws(Failure) -> [UInt8] {
        try check(algorithm, key: key, nonce: nonce)
        guard tag.count == Algorithm.tagLength else { throw .tagLength(tag.count) }
        guard let context = EVP_CIPHER_CTX_new() else { throw .library }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: ciphertext.count + 16)
        var tag = tag
        var ok = EVP_DecryptInit_ex(context, algorithm.cipher, nil, nil, nil) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1
        ok = ok && EVP_DecryptInit_ex(context, nil, nil, key, nonce) == 1
        ok = ok && update(context, decrypt: true, input: aad, output: nil) != nil
        var written = 0
        if ok, let n = update(context, decrypt: true, input: ciphertext, output: &output) { written = n } else { ok = false }
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tag.count), &tag) == 1
        guard ok else {
            wipe(&output)
            throw .library
        }
        var last: Int32 = 0
        let verified = output.withUnsafeMutableBufferPointer { buffer in
            EVP_DecryptFinal_ex(context, buffer.baseAddress! + written, &last) == 1
        }
        guard verified else {
            wipe(&output)
            throw .authenticationFailed
        }
        return Array(output[0..<(written + Int(last))])
    }

    /// Encrypts: the ciphertext and its 16-byte tag (for tests and for making examples).
    static func seal(
        _ algorithm: Algorithm, key: [UInt8], nonce: [UInt8], plaintext: [UInt8], aad: [UInt8]
    ) throws(Failure) -> (ciphertext: [UInt8], tag: [UInt8]) {
        try check(algorithm, key: key, nonce: nonce)
        guard let context = EVP_CIPHER_CTX_new() else { throw .library }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var tag = [UInt8](repeating: 0, count: Algorithm.tagLength)
        var ok = EVP_EncryptInit_ex(context, algorithm.cipher, nil, nil, nil) == 1
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1
        ok = ok && EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1
        ok = ok && update(context, decrypt: false, input: aad, output: nil) != nil
        var written = 0
        if ok, let n = update(context, decrypt: false, input: plaintext, output: &output) { written = n } else { ok = false }
        var last: Int32 = 0
        ok = ok && output.withUnsafeMutableBufferPointer { EVP_EncryptFinal_ex(context, $0.baseAddress! + written, &last) == 1 }
        ok = ok && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tag.count), &tag) == 1
        guard ok else { throw .library }
        return (Array(output[0..<(written + Int(last))]), tag)
    }

    private static func check(_ algorithm: Algorithm, key: [UInt8], nonce: [UInt8]) throws(Failure) {
        guard key.count == algorithm.keyLength else { throw .keyLength(algorithm, key.count) }
        guard algorithm.nonceLengths.contains(nonce.count) else { throw .nonceLength(algorithm, nonce.count) }
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
}
