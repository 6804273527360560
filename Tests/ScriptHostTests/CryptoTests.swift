import Foundation
import Testing
@testable import ScriptHost

/// A published AEAD test vector.
struct AEADVector: Sendable, CustomStringConvertible {
    let name: String
    let alg: AEAD.Algorithm
    let key: String
    let nonce: String
    let plaintext: String
    let aad: String
    let ciphertext: String
    let tag: String

    var description: String { name }
}

/// The test vectors of the GCM specification (McGrew and Viega, "The Galois/Counter Mode of
/// Operation", the test cases NIST publishes with it) and RFC 8439 section 2.8.2.
let aeadVectors: [AEADVector] = {
    let p64 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
    let p60 = String(p64.prefix(120))
    let aad = "feedfacedeadbeeffeedfacedeadbeefabaddad2"
    let k128 = "feffe9928665731c6d6a8f9467308308"
    let iv = "cafebabefacedbaddecaf888"
    let iv60 = "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b"
    let sunscreen = Array("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.".utf8)
        .map { String(format: "%02x", $0) }.joined()
    return [
        AEADVector(name: "GCM test case 1 (AES-128, empty)", alg: .aes128GCM, key: String(repeating: "00", count: 16), nonce: String(repeating: "00", count: 12),
                   plaintext: "", aad: "", ciphertext: "", tag: "58e2fccefa7e3061367f1d57a4e7455a"),
        AEADVector(name: "GCM test case 2 (AES-128)", alg: .aes128GCM, key: String(repeating: "00", count: 16), nonce: String(repeating: "00", count: 12),
                   plaintext: String(repeating: "00", count: 16), aad: "", ciphertext: "0388dace60b6a392f328c2b971b2fe78", tag: "ab6e47d42cec13bdf53a67b21257bddf"),
        AEADVector(name: "GCM test case 3 (AES-128, no AAD)", alg: .aes128GCM, key: k128, nonce: iv, plaintext: p64, aad: "",
                   ciphertext: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985",
                   tag: "4d5c2af327cd64a62cf35abd2ba6fab4"),
        AEADVector(name: "GCM test case 4 (AES-128, AAD)", alg: .aes128GCM, key: k128, nonce: iv, plaintext: p60, aad: aad,
                   ciphertext: "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091",
                   tag: "5bc94fbc3221a5db94fae95ae7121a47"),
        AEADVector(name: "GCM test case 6 (AES-128, AAD, 60-byte IV)", alg: .aes128GCM, key: k128, nonce: iv60, plaintext: p60, aad: aad,
                   ciphertext: "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5",
                   tag: "619cc5aefffe0bfa462af43c1699d050"),
        AEADVector(name: "GCM test case 13 (AES-256, empty)", alg: .aes256GCM, key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
                   plaintext: "", aad: "", ciphertext: "", tag: "530f8afbc74536b9a963b4f1c4cb738b"),
        AEADVector(name: "GCM test case 14 (AES-256)", alg: .aes256GCM, key: String(repeating: "00", count: 32), nonce: String(repeating: "00", count: 12),
                   plaintext: String(repeating: "00", count: 16), aad: "", ciphertext: "cea7403d4d606b6e074ec5d3baf39d18", tag: "d0d1c8a799996bf0265b98b5d48ab919"),
        AEADVector(name: "GCM test case 15 (AES-256, no AAD)", alg: .aes256GCM, key: k128 + k128, nonce: iv, plaintext: p64, aad: "",
                   ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad",
                   tag: "b094dac5d93471bdec1a502270e3cc6c"),
        AEADVector(name: "GCM test case 16 (AES-256, AAD)", alg: .aes256GCM, key: k128 + k128, nonce: iv, plaintext: p60, aad: aad,
                   ciphertext: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662",
                   tag: "76fc6ece0f4e1768cddf8853bb2d551b"),
        AEADVector(name: "GCM test case 18 (AES-256, AAD, 60-byte IV)", alg: .aes256GCM, key: k128 + k128, nonce: iv60, plaintext: p60, aad: aad,
                   ciphertext: "5a8def2f0c9e53f1f75d7853659e2a20eeb2b22aafde6419a058ab4f6f746bf40fc0c3b780f244452da3ebf1c5d82cdea2418997200ef82e44ae7e3f",
                   tag: "a44a8266ee1c8eb0c8b5d4cf5ae9f19a"),
        AEADVector(name: "RFC 8439 2.8.2 (ChaCha20-Poly1305)", alg: .chacha20Poly1305,
                   key: "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f", nonce: "070000004041424344454647",
                   plaintext: sunscreen, aad: "50515253c0c1c2c3c4c5c6c7",
                   ciphertext: "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116",
                   tag: "1ae10b594f09e26a7e902ecbd0600691"),
    ]
}()

/// The Lua table `crypto.decrypt` takes for a vector, with fields replaced as given.
func decryptCall(_ v: AEADVector, _ replace: [String: String] = [:]) -> String {
    var fields = [
        "alg": "\"\(v.alg.rawValue)\"", "key": "unhex(\"\(v.key)\")", "nonce": "unhex(\"\(v.nonce)\")",
        "ciphertext": "unhex(\"\(v.ciphertext)\")", "tag": "unhex(\"\(v.tag)\")", "aad": "unhex(\"\(v.aad)\")",
    ]
    for (k, value) in replace { fields[k] = value }
    return "return crypto.decrypt{" + fields.sorted { $0.key < $1.key }.map { "\($0.key) = \($0.value)" }.joined(separator: ", ") + "}"
}

@Suite struct CryptoAEADTests {
    @Test(arguments: aeadVectors) func publishedVectorsOpen(_ v: AEADVector) throws {
        let plaintext = try AEAD.open(v.alg, key: hexBytes(v.key), nonce: hexBytes(v.nonce), ciphertext: hexBytes(v.ciphertext), tag: hexBytes(v.tag), aad: hexBytes(v.aad))
        #expect(plaintext == hexBytes(v.plaintext))
    }

    @Test(arguments: aeadVectors) func publishedVectorsSeal(_ v: AEADVector) throws {
        let sealed = try AEAD.seal(v.alg, key: hexBytes(v.key), nonce: hexBytes(v.nonce), plaintext: hexBytes(v.plaintext), aad: hexBytes(v.aad))
        #expect(sealed.ciphertext == hexBytes(v.ciphertext))
        #expect(sealed.tag == hexBytes(v.tag))
    }

    @Test(arguments: aeadVectors) func everyTamperedByteFailsAuthentication(_ v: AEADVector) throws {
        let key = hexBytes(v.key), nonce = hexBytes(v.nonce), ciphertext = hexBytes(v.ciphertext), tag = hexBytes(v.tag), aad = hexBytes(v.aad)
        func fails(_ k: [UInt8], _ n: [UInt8], _ c: [UInt8], _ t: [UInt8], _ a: [UInt8]) -> Bool {
            do {
                _ = try AEAD.open(v.alg, key: k, nonce: n, ciphertext: c, tag: t, aad: a)
                return false
            } catch {
                return error == .authenticationFailed
            }
        }
        func flipped(_ bytes: [UInt8], _ i: Int) -> [UInt8] {
            var b = bytes
            b[i] ^= 0x01
            return b
        }
        for i in key.indices { #expect(fails(flipped(key, i), nonce, ciphertext, tag, aad), "key byte \(i)") }
        for i in nonce.indices { #expect(fails(key, flipped(nonce, i), ciphertext, tag, aad), "nonce byte \(i)") }
        for i in ciphertext.indices { #expect(fails(key, nonce, flipped(ciphertext, i), tag, aad), "ciphertext byte \(i)") }
        for i in tag.indices { #expect(fails(key, nonce, ciphertext, flipped(tag, i), aad), "tag byte \(i)") }
        for i in aad.indices { #expect(fails(key, nonce, ciphertext, tag, flipped(aad, i)), "aad byte \(i)") }
        // Associated data added, dropped or cut, and a ciphertext cut short, fail too.
        #expect(fails(key, nonce, ciphertext, tag, aad + [0]))
        if !aad.isEmpty { #expect(fails(key, nonce, ciphertext, tag, [])) }
        if !ciphertext.isEmpty { #expect(fails(key, nonce, Array(ciphertext.dropLast()), tag, aad)) }
    }

    @Test func lengthsTheAlgorithmDoesNotTakeAreRefused() {
        func failure(_ alg: AEAD.Algorithm, key: Int, nonce: Int, tag: Int) -> AEAD.Failure? {
            do {
                _ = try AEAD.open(alg, key: .init(repeating: 1, count: key), nonce: .init(repeating: 2, count: nonce), ciphertext: [1, 2, 3], tag: .init(repeating: 3, count: tag), aad: [])
                return nil
            } catch { return error }
        }
        #expect(failure(.aes128GCM, key: 32, nonce: 12, tag: 16) == .keyLength(.aes128GCM, 32))
        #expect(failure(.aes256GCM, key: 16, nonce: 12, tag: 16) == .keyLength(.aes256GCM, 16))
        #expect(failure(.chacha20Poly1305, key: 16, nonce: 12, tag: 16) == .keyLength(.chacha20Poly1305, 16))
        #expect(failure(.aes128GCM, key: 16, nonce: 8, tag: 16) == .nonceLength(.aes128GCM, 8))
        #expect(failure(.aes128GCM, key: 16, nonce: 0, tag: 16) == .nonceLength(.aes128GCM, 0))
        #expect(failure(.aes256GCM, key: 32, nonce: 257, tag: 16) == .nonceLength(.aes256GCM, 257))
        #expect(failure(.chacha20Poly1305, key: 32, nonce: 24, tag: 16) == .nonceLength(.chacha20Poly1305, 24))
        #expect(failure(.aes128GCM, key: 16, nonce: 12, tag: 12) == .tagLength(12))
        #expect(failure(.chacha20Poly1305, key: 32, nonce: 12, tag: 0) == .tagLength(0))
        // Right lengths reach the check of the tag.
        #expect(failure(.aes128GCM, key: 16, nonce: 12, tag: 16) == .authenticationFailed)
        #expect(failure(.aes256GCM, key: 32, nonce: 100, tag: 16) == .authenticationFailed)
        #expect(AEAD.Failure.nonceLength(.aes128GCM, 8).message == "aes-128-gcm takes a nonce of 12 to 256 bytes, not 8 bytes")
        #expect(AEAD.Failure.nonceLength(.chacha20Poly1305, 8).message == "chacha20-poly1305 takes a 12-byte nonce, not 8 bytes")
    }
}

@Suite struct CryptoDigestTests {
    @Test func sha256FIPS180Examples() {
        #expect(Digest.sha256(Array("abc".utf8)) == hexBytes("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"))
        #expect(Digest.sha256([]) == hexBytes("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"))
        #expect(Digest.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == hexBytes("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"))
    }

    /// RFC 4231 section 4, the HMAC-SHA256 results of test cases 1 to 7 (case 5's first 128 bits).
    @Test func hmacSHA256RFC4231() throws {
        let longKey = [UInt8](repeating: 0xaa, count: 131)
        let cases: [([UInt8], [UInt8], String)] = [
            (.init(repeating: 0x0b, count: 20), Array("Hi There".utf8), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            (.init(repeating: 0xaa, count: 20), .init(repeating: 0xdd, count: 50), "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
            (Array(1...25), .init(repeating: 0xcd, count: 50), "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
            (longKey, Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
            (longKey, Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
             "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
        ]
        for (key, data, expected) in cases {
            #expect(Digest.hmacSHA256(key: key, data: data) == hexBytes(expected))
        }
        let truncated = try #require(Digest.hmacSHA256(key: .init(repeating: 0x0c, count: 20), data: Array("Test With Truncation".utf8)))
        #expect(Array(truncated.prefix(16)) == hexBytes("a3b6167473100ee06e0c796c2955552b"))
    }
}
