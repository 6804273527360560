import Foundation
import Testing
@testable import ScriptHost

/// `crypto.decrypt`, `crypto.sha256`, `crypto.hmacSHA256` as scripts call them.
@Suite struct CryptoModuleTests {
    @Test(arguments: aeadVectors) func decryptGivesThePlaintext(_ v: AEADVector) async throws {
        #expect(try await values(decryptCall(v)) == [.hex(v.plaintext)])
    }

    @Test func aadIsOptionalAndMeansNone() async throws {
        let v = aeadVectors.first { $0.name.hasPrefix("GCM test case 3") }!
        #expect(try await values(decryptCall(v, ["aad": "nil"])) == [.hex(v.plaintext)])
        #expect(try await values(decryptCall(v, ["aad": "\"\""])) == [.hex(v.plaintext)])
    }

    @Test func tamperedInputsGiveAuthenticationFailedAndNoPlaintext() async throws {
        let failed: [Shown] = [.nil, .text("authentication failed")]
        for v in aeadVectors {
            func flip(_ field: String) -> String { "(function(s) return string.char(string.byte(s, 1) ~ 1) .. string.sub(s, 2) end)(unhex(\"\(field)\"))" }
            #expect(try await values(decryptCall(v, ["tag": flip(v.tag)])) == failed, "\(v) tag")
            #expect(try await values(decryptCall(v, ["nonce": flip(v.nonce)])) == failed, "\(v) nonce")
            #expect(try await values(decryptCall(v, ["key": flip(v.key)])) == failed, "\(v) key")
            #expect(try await values(decryptCall(v, ["aad": "unhex(\"\(v.aad)\") .. \"x\""])) == failed, "\(v) aad")
            if !v.ciphertext.isEmpty {
                #expect(try await values(decryptCall(v, ["ciphertext": flip(v.ciphertext)])) == failed, "\(v) ciphertext")
            }
            if !v.aad.isEmpty {
                #expect(try await values(decryptCall(v, ["aad": flip(v.aad)])) == failed, "\(v) aad byte")
                #expect(try await values(decryptCall(v, ["aad": "nil"])) == failed, "\(v) aad dropped")
            }
        }
    }

    @Test func wrongLengthsAndUnknownAlgorithmsAreNilAndAMessage() async throws {
        let v = aeadVectors.first { $0.name.hasPrefix("GCM test case 4") }!
        let chacha = aeadVectors.first { $0.alg == .chacha20Poly1305 }!
        let cases: [(String, String)] = [
            (decryptCall(v, ["alg": "\"aes-192-gcm\""]), "unknown alg 'aes-192-gcm'; alg is one of aes-128-gcm, aes-256-gcm, chacha20-poly1305"),
            (decryptCall(v, ["alg": "\"AES-128-GCM\""]), "unknown alg 'AES-128-GCM'; alg is one of aes-128-gcm, aes-256-gcm, chacha20-poly1305"),
            (decryptCall(v, ["alg": "\"aes-256-gcm\""]), "aes-256-gcm takes a 32-byte key, not 16 bytes"),
            (decryptCall(v, ["key": "string.rep(\"k\", 15)"]), "aes-128-gcm takes a 16-byte key, not 15 bytes"),
            (decryptCall(v, ["nonce": "\"12345678\""]), "aes-128-gcm takes a nonce of 12 to 256 bytes, not 8 bytes"),
            (decryptCall(chacha, ["nonce": "string.rep(\"n\", 24)"]), "chacha20-poly1305 takes a 12-byte nonce, not 24 bytes"),
            (decryptCall(v, ["tag": "string.sub(unhex(\"\(v.tag)\"), 1, 12)"]), "the tag must be 16 bytes, not 12"),
            (decryptCall(v, ["key": "nil"]), "key is missing"),
            (decryptCall(v, ["alg": "nil"]), "alg is missing"),
            (decryptCall(v, ["tag": "nil"]), "tag is missing"),
            (decryptCall(v, ["nonce": "nil"]), "nonce is missing"),
            (decryptCall(v, ["ciphertext": "nil"]), "ciphertext is missing"),
        ]
        for (call, message) in cases {
            #expect(try await values(call) == [.nil, .text(message)], "\(call)")
        }
    }

    @Test func wrongArgumentTypesRaise() async throws {
        let v = aeadVectors[2]
        #expect(try await raised("return crypto.decrypt(\"x\")")?.contains("bad argument #1 to 'decrypt' (table {alg=, key=, nonce=, ciphertext=, tag=, aad=} expected, got string)") == true)
        #expect(try await raised("return crypto.decrypt()")?.contains("got no value") == true)
        #expect(try await raised("return crypto.decrypt{1, 2}")?.contains("bad argument #1 to 'decrypt'") == true)
        #expect(try await raised(decryptCall(v, ["key": "16"]))?.contains("crypto.decrypt: key must be a string, not a number") == true)
        #expect(try await raised(decryptCall(v, ["aad": "{}"]))?.contains("crypto.decrypt: aad must be a string, not a table") == true)
        #expect(try await raised(decryptCall(v, ["iv": "\"x\""]))?.contains("crypto.decrypt: unknown field 'iv'; the fields are alg, key, nonce, ciphertext, tag, aad") == true)
        #expect(try await raised("return crypto.sha256(5)")?.contains("bad argument #1 to 'sha256' (string expected, got number)") == true)
        #expect(try await raised("return crypto.hmacSHA256(\"k\")")?.contains("bad argument #2 to 'hmacSHA256' (string expected, got no value)") == true)
    }

    @Test func digestsAreBinaryStrings() async throws {
        #expect(try await values("return crypto.sha256(\"abc\"), #crypto.sha256(\"\")") == [
            .hex("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"), .integer(32),
        ])
        #expect(try await values("return crypto.sha256(\"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq\")") == [
            .hex("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ])
        #expect(try await values("return crypto.hmacSHA256(\"Jefe\", \"what do ya want for nothing?\")") == [
            .hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ])
        #expect(try await values("return crypto.hmacSHA256(string.rep(\"\\x0b\", 20), \"Hi There\")") == [
            .hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        ])
        // Binary bytes pass through untouched, NUL included.
        #expect(try await values("return crypto.sha256(\"\\0\\255\")") == [.bytes(try #require(Digest.sha256([0, 255])))])
    }
}
