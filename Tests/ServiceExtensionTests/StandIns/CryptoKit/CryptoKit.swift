// Declarations of Apple's CryptoKit as its documentation gives them, for type-checking only.
import Foundation

/// A symmetric key.
public struct SymmetricKey: Sendable {
    public init<D: ContiguousBytes>(data: D) {}
}

/// CryptoKit's errors.
public enum CryptoKitError: Error {
    case incorrectKeySize
    case incorrectParameterSize
    case authenticationFailure
    case underlyingCoreCryptoError(error: Int32)
}

/// The AES ciphers.
public enum AES {
    /// AES in Galois/Counter Mode.
    public enum GCM {
        public struct Nonce: Sendable {
            public init() {}
            public init<D: DataProtocol>(data: D) throws {}
        }

        public struct SealedBox: Sendable {
            public var ciphertext: Data { Data() }
            public var tag: Data { Data() }
            public init<C: DataProtocol, T: DataProtocol>(nonce: AES.GCM.Nonce, ciphertext: C, tag: T) throws {}
        }

        public static func open<AuthenticatedData: DataProtocol>(
            _ sealedBox: AES.GCM.SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
        ) throws -> Data { Data() }
    }
}

/// ChaCha20-Poly1305.
public enum ChaChaPoly {
    public struct Nonce: Sendable {
        public init() {}
        public init<D: DataProtocol>(data: D) throws {}
    }

    public struct SealedBox: Sendable {
        public init<C: DataProtocol, T: DataProtocol>(nonce: ChaChaPoly.Nonce, ciphertext: C, tag: T) throws {}
    }

    public static func open<AuthenticatedData: DataProtocol>(
        _ sealedBox: ChaChaPoly.SealedBox, using key: SymmetricKey, authenticating authenticatedData: AuthenticatedData
    ) throws -> Data { Data() }
}

/// A hash function.
public protocol HashFunction {
    associatedtype Digest: Sequence where Digest.Element == UInt8
    static func hash<D: DataProtocol>(data: D) -> Digest
}

/// SHA-256.
public struct SHA256: HashFunction {
    public struct Digest: Sequence, Sendable {
        public func makeIterator() -> [UInt8].Iterator { [UInt8](repeating: 0, count: 32).makeIterator() }
    }

    public static func hash<D: DataProtocol>(data: D) -> Digest { Digest() }
}

/// A hash-based message authentication code.
public struct HMAC<H: HashFunction> {
    public struct MAC: Sequence, Sendable {
        public func makeIterator() -> [UInt8].Iterator { [UInt8](repeating: 0, count: 32).makeIterator() }
    }

    public static func authenticationCode<D: DataProtocol>(for data: D, using key: SymmetricKey) -> MAC { MAC() }
}
