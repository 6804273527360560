import Foundation
import Testing
@testable import ScriptHost

/// A ``ScriptCrypto`` an app could supply: it answers fixed bytes and counts its calls, so a
/// test sees which implementation the host used.
final class MarkedCrypto: ScriptCrypto, @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    /// What `open` answers: a plaintext, or an error.
    let opening: Result<[UInt8], CryptoError>

    init(opening: Result<[UInt8], CryptoError> = .success(Array("marked".utf8))) {
        self.opening = opening
    }

    func calls(_ name: String) -> Int { lock.withLock { counts[name] ?? 0 } }

    private func count(_ name: String) { lock.withLock { counts[name, default: 0] += 1 } }

    func open(
        _ algorithm: AEADAlgorithm, key: [UInt8], nonce: [UInt8], ciphertext: [UInt8], tag: [UInt8], aad: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        count("open")
        return try opening.get()
    }

    func sha256(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        count("sha256")
        return .init(repeating: 0xab, count: 32)
    }

    func hmacSHA256(key: [UInt8], data: [UInt8]) throws(CryptoError) -> [UInt8] {
        count("hmacSHA256")
        return .init(repeating: 0xcd, count: 32)
    }
}

/// The crypto seam: `crypto.*` goes through the host's ``HostConfiguration/crypto``, the
/// platform's by default.
@Suite struct CryptoSeamTests {
    func host(_ crypto: any ScriptCrypto) -> ScriptHost {
        var configuration = HostConfiguration()
        configuration.crypto = crypto
        return ScriptHost(configuration: configuration)
    }

    @Test func theDefaultIsThePlatformsAndItIsOpenSSLHere() {
        #expect(HostConfiguration().crypto is OpenSSLCrypto)
        #expect(PlatformCrypto.default is OpenSSLCrypto)
    }

    /// SHA-256 and HMAC-SHA-256, which are the platform's own C here (libcrypto is opened only
    /// for the ciphers and signatures), give FIPS 180-4's and RFC 4231's digests: an empty
    /// message, one block, the two-block 56-byte message, a million bytes; a short key and one
    /// longer than a block.
    @Test func sha256AndItsHMACGiveTheStandardsDigests() throws {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        let crypto = OpenSSLCrypto()
        #expect(hex(try crypto.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(try crypto.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(try crypto.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(try crypto.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(hex(try crypto.hmacSHA256(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(hex(try crypto.hmacSHA256(key: [UInt8](repeating: 0xaa, count: 131),
                                          data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func scriptsUseTheImplementationTheAppSupplies() async throws {
        let crypto = MarkedCrypto()
        let v = aeadVectors[2]
        #expect(try await values(decryptCall(v), host: host(crypto)) == [.text("marked")])
        #expect(try await values("return crypto.sha256('abc')", host: host(crypto)) == [.bytes(.init(repeating: 0xab, count: 32))])
        #expect(try await values("return crypto.hmacSHA256('k', 'abc')", host: host(crypto)) == [.bytes(.init(repeating: 0xcd, count: 32))])
        #expect(crypto.calls("open") == 1)
        #expect(crypto.calls("sha256") == 1)
        #expect(crypto.calls("hmacSHA256") == 1)
    }

    @Test func theHostChecksLengthsBeforeTheImplementationIsCalled() async throws {
        let crypto = MarkedCrypto()
        let v = aeadVectors[2]
        #expect(try await values(decryptCall(v, ["key": "'short'"]), host: host(crypto)) == [.nil, .text("aes-128-gcm takes a 16-byte key, not 5 bytes")])
        #expect(try await values(decryptCall(v, ["tag": "'short'"]), host: host(crypto)) == [.nil, .text("the tag must be 16 bytes, not 5")])
        #expect(crypto.calls("open") == 0)
    }

    @Test func anImplementationsFailuresReachTheScriptAsTheirMessages() async throws {
        let v = aeadVectors[2]
        #expect(try await values(decryptCall(v), host: host(MarkedCrypto(opening: .failure(.authenticationFailed))))
                == [.nil, .text("authentication failed")])
        #expect(try await values(decryptCall(v), host: host(MarkedCrypto(opening: .failure(.failed))))
                == [.nil, .text("the cipher could not be set up")])
        #expect(try await raised("return crypto.sha256('x')", host: host(UnavailableCrypto()))?
                .contains("crypto.sha256: the digest could not be computed") == true)
        #expect(try await raised("return crypto.hmacSHA256('k', 'x')", host: host(UnavailableCrypto()))?
                .contains("crypto.hmacSHA256: the MAC could not be computed") == true)
    }

    @Test func aScriptsIdentityIsItsSHA256ThroughThePlatformsImplementation() {
        let script = Script(name: "a.lua", source: "abc")
        #expect(script.sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
