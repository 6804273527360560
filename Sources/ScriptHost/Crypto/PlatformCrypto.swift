/// The platform's ``ScriptCrypto``, chosen here and nowhere else.
public enum PlatformCrypto {
    /// OpenSSL's libcrypto where the package links it (Linux), CryptoKit on Apple platforms;
    /// elsewhere an implementation whose every call fails, so that an app there must set
    /// ``HostConfiguration/crypto`` for `crypto.*` to work (and a result's `script.sha256` is
    /// then empty).
    public static let `default`: any ScriptCrypto = {
        #if canImport(CCrypto)
        OpenSSLCrypto()
        #elseif canImport(CryptoKit)
        CryptoKitCrypto()
        #else
        UnavailableCrypto()
        #endif
    }()
}

/// The ``ScriptCrypto`` of a platform without one: every call fails with ``CryptoError/failed``.
struct UnavailableCrypto: ScriptCrypto {
    func open(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        throw .failed
    }

    func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] { throw .failed }

    func hmacSHA256(key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8] { throw .failed }
}
