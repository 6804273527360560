import Foundation
import NotificationModel
@testable import ScriptBundles
import ScriptHost
import Testing

/// Verifying a container: each part checked, in order, each failure with its reason.
@Suite struct BundleVerifierTests {
    let verifier = BundleVerifier(trust: TestBundles.trust())

    func refusal(_ bytes: [UInt8], now: Int64 = TestBundles.now, verifier: BundleVerifier? = nil) -> BundleRefusal? {
        do {
            _ = try (verifier ?? self.verifier).verify(bytes, now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test func aBuiltBundleVerifiesWithItsFilesInOrder() throws {
        let bytes = TestBundles.bundle(version: 3, files: ["com.example.news.lua": "x = 1", "lib/util.lua": "return {}", "media/a.png": "PNG"])
        guard case .bundle(let bundle) = try verifier.verify(bytes, now: TestBundles.now) else { Issue.record("not a bundle"); return }
        #expect(bundle.manifest.version == 3)
        #expect(bundle.manifest.files.map(\.path) == ["com.example.news.lua", "lib/util.lua", "media/a.png"])
        #expect(bundle.contents.map { String(decoding: $0, as: UTF8.self) } == ["x = 1", "return {}", "PNG"])
        #expect(bundle.manifest.files[0].sha256 == PlatformCrypto.shared.sha256Hex(Array("x = 1".utf8)))
    }

    @Test func signaturesAreEd25519OverTheSignedBytes() throws {
        // RFC 8032, test 1: the empty message under the key of seed 9d61b19d…
        let seed = Hex.bytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")!
        let key = try #require(SigningKey(seed: seed))
        #expect(Hex.string(key.publicKey.bytes) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try #require(key.sign([]))
        #expect(Hex.string(signature) == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
        #expect(PlatformCrypto.shared.isValidSignature(signature, of: [], publicKey: key.publicKey.bytes))
        #expect(!PlatformCrypto.shared.isValidSignature(signature, of: [0], publicKey: key.publicKey.bytes))
    }

    @Test func aFlippedByteInEachPartIsRefusedForWhatItBroke() throws {
        let bytes = TestBundles.bundle(version: 1, files: ["com.example.news.lua": "x = 1", "media/a.png": "PNG"])
        let parts = try BundleContainer.split(bytes)
        let documentStart = parts.signed.startIndex, keyStart = parts.signed.endIndex
        let signatureStart = parts.signature.startIndex, payloadStart = parts.payload.startIndex
        let cases: [(String, Int, BundleRefusal.Kind)] = [
            ("magic", 0, .malformed), ("format", 9, .malformed), ("length", 10, .malformed), ("length's last byte", 13, .unknownKey),
            ("tag line", documentStart, .badSignature), ("manifest", documentStart + 40, .badSignature),
            ("key id", keyStart, .unknownKey), ("signature", signatureStart + 10, .badSignature),
            ("script", payloadStart, .fileMismatch), ("media", bytes.count - 1, .fileMismatch),
        ]
        for (part, index, kind) in cases {
            var hostile = bytes
            hostile[index] ^= 0x01
            #expect(refusal(hostile)?.kind == kind, "a flipped byte in the \(part)")
        }
        #expect(refusal(bytes) == nil)
    }

    @Test func filesAddedRemovedOrCutAreRefusedBeforeTheirHashes() {
        let bytes = TestBundles.bundle(version: 1)
        #expect(refusal(bytes + Array("extra".utf8))?.message.contains("a file was added") == true)
        #expect(refusal(Array(bytes.dropLast(3)))?.message.contains("a file was removed or cut short") == true)
        #expect(refusal(Array(bytes.prefix(20)))?.kind == .malformed)
        #expect(refusal([])?.kind == .malformed)
    }

    @Test func keysAreTrustedByIdAndSeveralAtOnce() {
        let old = TestBundles.key(1), new = TestBundles.key(2), other = TestBundles.key(3)
        let both = BundleVerifier(trust: TestBundles.trust(old, new))
        #expect(refusal(TestBundles.bundle(version: 1, key: old), verifier: both) == nil)
        #expect(refusal(TestBundles.bundle(version: 1, key: new), verifier: both) == nil)
        let unknown = refusal(TestBundles.bundle(version: 1, key: other), verifier: both)
        #expect(unknown?.kind == .unknownKey)
        #expect(unknown?.message.contains(other.id.description) == true)
        // The container names a trusted key, but another key signed it.
        let forged = try! BundleWriter.signed(SignedDocument.signedBytes(Self.manifest(key: old)), key: other, keyID: old.id, files: [Array("x".utf8)])
        #expect(refusal(forged, verifier: both)?.kind == .badSignature)
    }

    @Test func expiryAndHostVersionAreCheckedAfterTheSignature() {
        let bytes = TestBundles.bundle(version: 1, created: 100, expires: 200)
        #expect(refusal(bytes, now: 200) == nil)
        let expired = refusal(bytes, now: 201)
        #expect(expired?.kind == .expired)
        #expect(expired?.description.hasPrefix("refused: expired: the manifest of com.example.news version 1 expired at 1970-01-01T00:03:20Z") == true)
        let future = refusal(TestBundles.bundle(version: 1, minimumHostVersion: ScriptHost.hostVersion + 1))
        #expect(future?.kind == .hostTooOld)
    }

    @Test func aRevocationHoldsNoFiles() throws {
        let bytes = TestBundles.revocation(version: 4)
        guard case .revocation(let r) = try verifier.verify(bytes, now: TestBundles.now) else { Issue.record("not a revocation"); return }
        #expect(r.version == 4 && r.app == TestBundles.app)
        #expect(refusal(bytes + [1])?.kind == .malformed)
    }

    @Test func theSignedDocumentMustBeCanonicalAndKnown() {
        let key = TestBundles.key()
        let manifest = Self.manifest(key: key)
        let json = try! manifest.jsonValue.jsonBytes(prettyPrinted: true)
        let pretty = try! BundleWriter.signed(BundleContainer.manifestTag + json, key: key, files: [Array("x".utf8)])
        #expect(refusal(pretty)?.message.contains("canonical") == true)
        let untagged = try! BundleWriter.signed(try! CanonicalJSON.bytes(manifest.jsonValue), key: key, files: [Array("x".utf8)])
        #expect(refusal(untagged)?.message.contains("not a format tag") == true)
        var other = manifest
        other.keyID = TestBundles.key(9).id
        let mismatched = try! BundleWriter.signed(SignedDocument.signedBytes(other), key: key, files: [Array("x".utf8)])
        #expect(refusal(mismatched)?.message.contains("names key") == true)
    }

    static func manifest(key: SigningKey) -> BundleManifest {
        BundleManifest(
            app: TestBundles.app, version: 1, created: TestBundles.now - 10, expires: TestBundles.now + 10, keyID: key.id,
            files: [BundleFileEntry(path: "com.example.news.lua", kind: .script, size: 1, sha256: PlatformCrypto.shared.sha256Hex(Array("x".utf8)))])
    }
}
