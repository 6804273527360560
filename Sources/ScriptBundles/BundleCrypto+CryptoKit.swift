#if !canImport(CCrypto) && canImport(CryptoKit)
import CryptoKit
import Foundation

/// Ed25519 and SHA-256 through CryptoKit (`Curve25519.Signing`, `SHA256`): the implementation
/// of an Apple build, where libcrypto is not linked.
public struct CryptoKitBundleCrypto: BundleCrypto {
    /// The CryptoKit implementation.
    public init() {}

    public func publicKey(ofPrivateKey seed: [UInt8]) -> [UInt8]? {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else { return nil }
        return [UInt8](key.publicKey.rawRepresentation)
    }

    public func sign(_ message: [UInt8], privateKey seed: [UInt8]) -> [UInt8]? {
        guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed),
              let signature = try? key.signature(for: Data(message)) else { return nil }
        return [UInt8](signature)
    }

    public func isValidSignature(_ signature: [UInt8], of message: [UInt8], publicKey: [UInt8]) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey) else { return false }
        return key.isValidSignature(Data(signature), for: Data(message))
    }

    public func sha256(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](SHA256.hash(data: Data(bytes)))
    }
}
#endif
