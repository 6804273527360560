import Foundation
import NotificationModel
@testable import ScriptBundles
import TestSupport
import Testing

/// The bundle cases of the attack catalogue (`Tests/Attacks/bundles`, cases 240–259): each
/// hostile bundle is refused by `pushscript bundle install` with its one-line reason, and the
/// state folder is left byte for byte as it was.
///
/// The files are made here, from the catalogue's test key and fixed times (Ed25519 signatures
/// are deterministic): `PUSHSCRIPT_RECORD_ATTACKS=1` writes them; otherwise the test first
/// checks that the committed files are what this code makes.
@Suite(.serialized) struct BundleAttackCatalogueTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Attacks/bundles", isDirectory: true)
    /// The catalogue's key: a test key, committed, trusted by nothing real.
    static let key = SigningKey(seed: [UInt8](repeating: 0xA7, count: 32))!
    /// A key the catalogue's state does not trust.
    static let stranger = SigningKey(seed: [UInt8](repeating: 0x5E, count: 32))!
    static let app = "com.example.attack"
    static let created: Int64 = 1_767_225_600  // 2026-01-01
    static let expires: Int64 = 4_102_444_800  // 2100-01-01

    static let script = Array("-- A harmless script: the attacks are in the bundle around it.\nfunction didReceive(request, content) content.title = \"attack\" end\n".utf8)
    static let module = Array("return {}\n".utf8)
    static let pixel: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0]

    /// A validly signed bundle of the three files.
    static func bundle(version: Int, app: String = app, key: SigningKey = key, created: Int64 = created, expires: Int64 = expires, limits: RequestedLimits = RequestedLimits()) -> [UInt8] {
        let manifest = BundleManifest(
            app: app, version: version, created: created, expires: expires, probation: 0, limits: limits, keyID: key.id,
            files: [
                BundleFileEntry(path: "\(app).lua", kind: .script, size: 0, sha256: ""),
                BundleFileEntry(path: "lib/util.lua", kind: .module, size: 0, sha256: ""),
                BundleFileEntry(path: "media/pixel.png", kind: .media, size: 0, sha256: ""),
            ])
        return try! BundleWriter.bundle(manifest, contents: ["\(app).lua": script, "lib/util.lua": module, "media/pixel.png": pixel], key: key)
    }

    /// A bundle whose signed manifest is `change`d JSON (not checked before signing).
    static func hostileManifest(files: [[UInt8]], _ change: (inout [String: JSONValue]) -> Void) -> [UInt8] {
        guard case .object(var object) = (try! SignedDocument(signed: BundleContainer.split(bundle(version: 3)).signed)).jsonValue else { fatalError() }
        change(&object)
        let signed = BundleContainer.manifestTag + (try! CanonicalJSON.bytes(.object(object)))
        return try! BundleWriter.signed(signed, key: key, files: files)
    }

    static func entry(_ path: String, _ kind: String, _ bytes: [UInt8], size: Int64? = nil) -> JSONValue {
        .object(["path": .string(path), "kind": .string(kind), "size": .integer(size ?? Int64(bytes.count)), "sha256": .string(PlatformCrypto.shared.sha256Hex(bytes))])
    }

    static func flipped(_ bytes: [UInt8], at index: Int) -> [UInt8] {
        var out = bytes
        out[index] ^= 0x20
        return out
    }

    /// One case: its file, the files installed before it, and the line it is refused with.
    struct Case {
        let name: String
        let bytes: [UInt8]
        var setup = ["base-v2.psbundle"]
        let refused: String
    }

    static func cases() -> (files: [String: [UInt8]], cases: [Case]) {
        let good = bundle(version: 3)
        let parts = try! BundleContainer.split(good)
        let signedStart = parts.signed.startIndex
        let manifestText = Array(parts.signed)
        let appOffset = signedStart + manifestText.indices.first { manifestText[$0...].starts(with: Array(#""app":"#.utf8)) }! + 8
        let payload = parts.payload.startIndex
        let size = script.count + module.count + pixel.count
        let files: [String: [UInt8]] = [
            "base-v2.psbundle": bundle(version: 2),
            "good-v3.psbundle": good,
            "254_revocation_of_v3.psbundle": try! BundleWriter.revocation(Revocation(app: app, version: 3, created: created, keyID: key.id), key: key),
        ]
        let many = (0...BundleManifest.maximumFiles).map { entry(String(format: "m/%04d.lua", $0), "module", module) }
        let cases = [
            Case(name: "240_flipped_magic", bytes: flipped(good, at: 0), refused: "refused: malformed: not a PushScript bundle (it does not start with PSBUNDLE)"),
            Case(name: "241_flipped_format", bytes: flipped(good, at: 9), refused: "refused: malformed: the container format is 33; this host reads format 1"),
            Case(name: "242_flipped_length", bytes: flipped(good, at: 11), refused: "refused: malformed: the signed document's length is"),
            Case(name: "243_flipped_manifest", bytes: flipped(good, at: appOffset), refused: "refused: bad signature: the signature does not verify with key \(key.id)"),
            Case(name: "244_flipped_key_id", bytes: flipped(good, at: parts.signed.endIndex), refused: "refused: unknown key: it is signed by key"),
            Case(name: "245_flipped_signature", bytes: flipped(good, at: parts.signature.startIndex + 31), refused: "refused: bad signature:"),
            Case(name: "246_flipped_script", bytes: flipped(good, at: payload + 5), refused: "refused: file does not match: com.example.attack.lua is not the file the manifest signed"),
            Case(name: "247_flipped_module", bytes: flipped(good, at: payload + script.count + 2), refused: "refused: file does not match: lib/util.lua is not the file the manifest signed"),
            Case(name: "248_flipped_media", bytes: flipped(good, at: good.count - 1), refused: "refused: file does not match: media/pixel.png is not the file the manifest signed"),
            Case(name: "249_file_added", bytes: good + Array("-- one more file\n".utf8), refused: "refused: malformed: the bundle holds \(size + 17) bytes of files but its manifest lists \(size); a file was added, or bytes after the files"),
            Case(name: "250_file_removed", bytes: Array(good.dropLast(pixel.count)), refused: "refused: malformed: the bundle holds \(size - pixel.count) bytes of files but its manifest lists \(size); a file was removed or cut short"),
            Case(name: "251_other_app", bytes: bundle(version: 3, app: "com.example.other"), refused: "refused: other app: it is for com.example.other, not com.example.attack"),
            Case(name: "252_older_version", bytes: bundle(version: 1), refused: "refused: not newer: com.example.attack version 1 is not above the installed version 2"),
            Case(name: "253_expired", bytes: bundle(version: 3, created: 978_307_200, expires: 1_009_843_200), refused: "refused: expired: the manifest of com.example.attack version 3 expired at 2002-01-01T00:00:00Z"),
            Case(name: "254_revoked", bytes: good, setup: ["base-v2.psbundle", "254_revocation_of_v3.psbundle"], refused: "refused: revoked: com.example.attack version 3 was revoked"),
            Case(name: "255_wider_limits", bytes: bundle(version: 3, limits: RequestedLimits(cpuMs: 5000, memoryMB: 64)), refused: "refused: wider: the bundle asks for cpuMs 5000, above the host's 200"),
            Case(name: "256_path_climbs_out", bytes: hostileManifest(files: [script, module]) {
                $0["files"] = .array([entry("../escape.lua", "module", module), entry("\(app).lua", "script", script)])
            }, refused: "refused: malformed: the path '../escape.lua' climbs out of the bundle with '..'"),
            Case(name: "257_huge_file_count", bytes: hostileManifest(files: [script] + many.map { _ in module }) {
                $0["files"] = .array([entry("\(app).lua", "script", script)] + many)
            }, refused: "refused: malformed: the manifest lists 258 files; a bundle holds at most 256"),
            Case(name: "258_gigabyte_declared", bytes: hostileManifest(files: [script, pixel]) {
                $0["files"] = .array([entry("\(app).lua", "script", script), entry("media/huge.mov", "media", pixel, size: 1 << 30)])
            }, refused: "refused: malformed: 'media/huge.mov' declares 1073741824 bytes; a media file holds at most 10 MiB"),
            Case(name: "259_unknown_key", bytes: bundle(version: 3, key: stranger), refused: "refused: unknown key: it is signed by key \(stranger.id), which is not trusted (the trusted keys are \(key.id))"),
        ]
        return (files, cases)
    }

    static func casesJSON(_ cases: [Case]) -> [UInt8] {
        let list: [JSONValue] = cases.map { c in
            .object(["case": .string(c.name), "file": .string(c.name + ".psbundle"), "setup": .array(c.setup.map { .string($0) }), "refused": .string(c.refused)])
        }
        return Array(try! JSONValue.array(list).jsonData(keyOrder: JSONKeyOrder(first: ["case", "file", "setup", "refused"]), prettyPrinted: true)) + [UInt8(ascii: "\n")]
    }

    /// Every file of the catalogue by name, as this code makes it.
    static func made() -> [String: [UInt8]] {
        let (files, cases) = cases()
        var all = files
        for c in cases where c.name != "254_revoked" { all[c.name + ".psbundle"] = c.bytes }
        all["254_revoked.psbundle"] = files["good-v3.psbundle"]
        all["cases.json"] = casesJSON(cases)
        all["TEST-ONLY.key"] = Array(key.fileText.utf8)
        all["TEST-ONLY.key.pub"] = Array(key.publicKey.fileText.utf8)
        return all
    }

    @Test func theCommittedCatalogueIsWhatThisCodeMakes() throws {
        let made = Self.made()
        if ProcessInfo.processInfo.environment["PUSHSCRIPT_RECORD_ATTACKS"] == "1" {
            for (name, bytes) in made { try Data(bytes).write(to: Self.folder.appendingPathComponent(name)) }
        }
        for (name, bytes) in made.sorted(by: { $0.key < $1.key }) {
            let committed = FileManager.default.contents(atPath: Self.folder.appendingPathComponent(name).path)
            #expect(committed.map { [UInt8]($0) } == bytes, "Tests/Attacks/bundles/\(name) is not what the generator makes; run with PUSHSCRIPT_RECORD_ATTACKS=1")
        }
    }

    @Test func everyCaseIsRefusedWithItsReasonAndTheStateAsItWas() async throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("cases.json"))
        let cases = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(cases.count == 20)
        let trust = Self.folder.appendingPathComponent("TEST-ONLY.key.pub").path
        func install(_ file: String, _ state: URL) async throws -> CLIOutput {
            try await CLI.run(["bundle", "install", Self.folder.appendingPathComponent(file).path, "--state", state.path, "--trust", trust, "--app", Self.app])
        }
        for c in cases {
            let name = try #require(c["case"] as? String), file = try #require(c["file"] as? String)
            let setup = try #require(c["setup"] as? [String]), refused = try #require(c["refused"] as? String)
            let state = try TemporaryFolder("bundle-attack")
            for s in setup {
                let out = try await install(s, state.url)
                #expect(out.status == 0, "\(name): setup \(s): \(out)")
            }
            let before = TestBundles.snapshot(state.url)
            let out = try await install(file, state.url)
            #expect(out.status == 1, "\(name): \(out)")
            #expect(out.lines.count == 1 && out.stderr.isEmpty, "\(name): one line: \(out)")
            #expect(out.stdout.hasPrefix(refused), "\(name): \(out.stdout)")
            #expect(TestBundles.snapshot(state.url) == before, "\(name) changed the state")
            // What the case breaks is what keeps it out: the bundle it was made from installs.
            if name != "254_revoked" {
                let control = try await install("good-v3.psbundle", state.url)
                #expect(control.status == 0, "\(name): the good bundle after it: \(control)")
            }
        }
    }
}
