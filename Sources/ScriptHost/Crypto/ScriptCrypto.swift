/// The cryptography the script API and the host need, behind one seam: AEAD decryption
/// (`crypto.decrypt`), SHA-256 (`crypto.sha256`, a result's `script.sha256`) and HMAC-SHA256
/// (`crypto.hmacSHA256`).
///
/// ``PlatformCrypto/default`` is the platform's implementation: OpenSSL's libcrypto on Linux
/// (``OpenSSLCrypto``), CryptoKit on Apple platforms. An app that must use another library sets
/// ``HostConfiguration/crypto`` to its own implementation; it is then used for every `crypto.*`
/// call of that host's scripts.
///
/// Nothing here is cryptography of its own: an implementation only calls a library. The host
/// checks the lengths of a key, nonce and tag against the algorithm before it calls ``open``.
public protocol ScriptCrypto: Sendable {
    /// Decrypts `ciphertext` and checks its 16-byte `tag` against the key, nonce, ciphertext and
    /// associated data. The lengths have been checked: `key` has the algorithm's
    /// ``AEADAlgorithm/keyLength``, `nonce` one of its ``AEADAlgorithm/nonceLengths``, `tag`
    /// ``AEADAlgorithm/tagLength`` bytes.
    ///
    /// - Returns: the plaintext, only when the tag matches; never a partial plaintext.
    /// - Throws: ``CryptoError/authenticationFailed`` when it does not match, ``CryptoError/failed``
    ///   when the library could not run (out of memory).
    func open(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> [UInt8]

    /// The 32-byte SHA-256 digest of `data`.
    ///
    /// - Throws: ``CryptoError/failed`` when the library could not run.
    func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8]

    /// The 32-byte HMAC-SHA256 of `data` under `key` (a key of any length; one longer than a
    /// block is hashed first, as RFC 2104 says).
    ///
    /// - Throws: ``CryptoError/failed`` when the library could not run.
    func hmacSHA256(key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8]
}

/// An authenticated encryption algorithm `crypto.decrypt` takes, by its script name.
public enum AEADAlgorithm: String, CaseIterable, Sendable {
    /// AES-128 in Galois/Counter Mode.
    case aes128GCM = "aes-128-gcm"
    /// AES-256 in Galois/Counter Mode.
    case aes256GCM = "aes-256-gcm"
    /// ChaCha20-Poly1305 (RFC 8439).
    case chacha20Poly1305 = "chacha20-poly1305"

    /// The key length in bytes.
    public var keyLength: Int {
        switch self {
        case .aes128GCM: 16
        case .aes256GCM, .chacha20Poly1305: 32
        }
    }

    /// The nonce lengths taken, as CryptoKit takes them: 12 bytes or more for AES-GCM (at most
    /// 256 here), exactly 12 for ChaCha20-Poly1305.
    public var nonceLengths: ClosedRange<Int> {
        switch self {
        case .aes128GCM, .aes256GCM: 12...256
        case .chacha20Poly1305: 12...12
        }
    }

    /// The tag length in bytes: the full 16 for every algorithm.
    public static let tagLength = 16

    /// The names scripts may give, for messages.
    static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Why a ``ScriptCrypto`` call gave nothing.
public enum CryptoError: Error, Sendable, Hashable {
    /// The tag does not match: a wrong key or tampered data.
    case authenticationFailed
    /// The library could not run the operation (out of memory, a cipher it cannot set up).
    case failed
}
