import COpenSSL

/// SHA-256 and HMAC-SHA256 through OpenSSL's libcrypto (`crypto.sha256`, `crypto.hmacSHA256`).
enum Digest {
    /// The length of a SHA-256 digest in bytes.
    static let sha256Length = 32

    /// The SHA-256 digest of `data`; nil only when the library fails (out of memory).
    static func sha256(_ data: [UInt8]) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = withNonNullBytes(data) { bytes in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(bytes, data.count, $0.baseAddress, &length, EVP_sha256(), nil) == 1 }
        }
        guard ok, Int(length) == sha256Length else { return nil }
        return Array(digest[0..<Int(length)])
    }

    /// The HMAC-SHA256 of `data` under `key` (any length; longer than a block is hashed first);
    /// nil only when the library fails (out of memory).
    static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8]? {
        guard key.count <= Int(Int32.max) else { return nil }
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = withNonNullBytes(key) { keyBytes in
            withNonNullBytes(data) { dataBytes in
                mac.withUnsafeMutableBufferPointer { out in
                    HMAC(EVP_sha256(), keyBytes, Int32(key.count), dataBytes, data.count, out.baseAddress, &length) != nil
                }
            }
        }
        guard ok, Int(length) == sha256Length else { return nil }
        return Array(mac[0..<Int(length)])
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
