#if canImport(CryptoKit)
import CryptoKit

/// ``ScriptCrypto`` through Apple's CryptoKit (`AES.GCM`, `ChaChaPoly`, `SHA256`,
/// `HMAC<SHA256>`): the platform's implementation on Apple platforms, where the package does
/// not link OpenSSL. It only calls the framework.
///
/// This file uses only the public API of ScriptHost, so that a test type-checks it on Linux
/// against a stand-in of CryptoKit's signatures.
struct CryptoKitCrypto: ScriptCrypto {
    func open(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        let symmetricKey = SymmetricKey(data: key)
        do {
            switch algorithm {
            case .aes128GCM, .aes256GCM:
                let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                return [UInt8](try AES.GCM.open(box, using: symmetricKey, authenticating: aad))
            case .chacha20Poly1305:
                let box = try ChaChaPoly.SealedBox(nonce: ChaChaPoly.Nonce(data: nonce), ciphertext: ciphertext, tag: tag)
                return [UInt8](try ChaChaPoly.open(box, using: symmetricKey, authenticating: aad))
            }
        } catch CryptoKitError.authenticationFailure {
            throw .authenticationFailed
        } catch {
            throw .failed
        }
    }

    func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        [UInt8](SHA256.hash(data: data))
    }

    func hmacSHA256(key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8] {
        [UInt8](HMAC<SHA256>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }
}
#endif
