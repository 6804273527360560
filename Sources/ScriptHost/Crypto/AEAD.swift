/// Authenticated decryption as `crypto.decrypt` takes it: the lengths checked here, the
/// cryptography done by a ``ScriptCrypto``.
enum AEAD {
    /// An algorithm by its script name.
    typealias Algorithm = AEADAlgorithm

    /// Why a decryption gave nothing. Only ``authenticationFailed`` can come from the data
    /// itself; the others are lengths that the algorithm does not take, or a library that failed.
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

    /// Decrypts and authenticates through `crypto`. Returns the plaintext only when the tag
    /// matches the key, nonce, ciphertext and associated data; never a partial plaintext.
    static func open(
        _ algorithm: Algorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8],
        using crypto: any ScriptCrypto = PlatformCrypto.default
    ) throws(Failure) -> [UInt8] {
        try check(algorithm, key: key, nonce: nonce)
        guard tag.count == Algorithm.tagLength else { throw .tagLength(tag.count) }
        do {
            return try crypto.open(algorithm, key: key, nonce: nonce, ciphertext: ciphertext, tag: tag, aad: aad)
        } catch {
            switch error {
            case .authenticationFailed: throw .authenticationFailed
            case .failed: throw .library
            }
        }
    }

    /// Checks the key's and the nonce's lengths against the algorithm.
    static func check(_ algorithm: Algorithm, key: [UInt8], nonce: [UInt8]) throws(Failure) {
        guard key.count == algorithm.keyLength else { throw .keyLength(algorithm, key.count) }
        guard algorithm.nonceLengths.contains(nonce.count) else { throw .nonceLength(algorithm, nonce.count) }
    }
}
