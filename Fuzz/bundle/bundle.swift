// Fuzz target: the bundle container, the manifest parser, the verifier and the installer.
//
// The first byte picks the mode. 'R' (raw): the rest is a container, verified against a
// trusted key; it must be refused with a BundleRefusal or accepted, never crash. Any other
// byte (signed): the rest is `DOCUMENT 0x00 FILES`; the harness signs DOCUMENT with the trusted
// key, so the fuzzer reaches past the signature into the manifest's rules and the files. A
// bundle that verifies is installed into a fresh state folder (in /dev/shm when there is one),
// which must then hold exactly the manifest's files inside its version folder, and serve that
// version.
import Foundation
import NotificationModel
import ScriptBundles
import ScriptHost

private let key = SigningKey(seed: [UInt8](repeating: 0xF0, count: 32))!
private let verifier = BundleVerifier(trust: TrustedKeys([key.publicKey]))
private let scratch: URL = {
    let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
    let url = base.appendingPathComponent("pushscript-fuzz-bundle-\(getpid())", isDirectory: true)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()) + "/pushscript-fuzz-bundle-\(getpid())") }
    return url
}()
// Before any expiry: the seeds carry real times.
private let now: Int64 = 0

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBundle(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let container: [UInt8]
    if input[0] == UInt8(ascii: "R") {
        container = Array(input.dropFirst())
    } else {
        let rest = input.dropFirst()
        let split = rest.firstIndex(of: 0) ?? rest.endIndex
        let document = Array(rest[..<split])
        let files = split < rest.endIndex ? Array(rest[(split + 1)...]) : []
        guard !document.isEmpty, document.count <= BundleContainer.maximumSignedBytes, let signature = key.sign(document) else { return 0 }
        container = BundleContainer.encode(signed: document, keyID: key.id, signature: signature, files: [files])
    }
    // Reading without verifying (what `bundle inspect` does) must be as safe.
    if let parts = try? BundleContainer.split(container), let document = try? SignedDocument(signed: parts.signed) {
        guard let json = try? document.jsonValue.jsonString(), !json.isEmpty else { fatalError("a document read cannot be written") }
        if case .manifest(let manifest) = document {
            guard (try? BundleManifest(json: manifest.jsonValue)) == manifest else { fatalError("a manifest does not read back as itself") }
            guard SignedDocument.signedBytes(manifest) == Array(parts.signed) else { fatalError("a manifest read is not its canonical bytes") }
        }
    }
    let item: VerifiedItem
    do { item = try verifier.verify(container, now: now) } catch {
        guard error.description.hasPrefix("refused: "), !error.description.contains("\n") else { fatalError("a refusal is not one line: \(error)") }
        return 0
    }
    guard case .bundle(let bundle) = item else { return 0 }
    let state = scratch.appendingPathComponent(UUID().uuidString, isDirectory: true)
    try? FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: state) }
    let manifest = bundle.manifest
    let installer = BundleInstaller(stateDirectory: state, verifier: verifier, ceiling: HostCeiling(limits: ScriptLimits(cpuTime: .seconds(3600), memoryBytes: 64 << 30, time: .seconds(86_400)), allowHTTP: Set(manifest.allowHTTP ?? []), allowPost: Set(manifest.allowPost ?? [])))
    do { _ = try installer.install(container, now: now) } catch {
        // Only the host version or the state can refuse what verified.
        guard error.kind == .state || error.kind == .hostTooOld else { fatalError("a verified bundle was refused at install: \(error)") }
        return 0
    }
    let folder = state.appendingPathComponent("\(manifest.app).bundles/\(manifest.version)", isDirectory: true)
    var found: Set<String> = []
    if let walker = FileManager.default.enumerator(atPath: folder.path) {
        for case let path as String in walker {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            if !isFolder.boolValue { found.insert(path) }
        }
    }
    let expected = Set(manifest.files.map(\.path) + [".envelope"])
    guard found == expected else { fatalError("installed files \(found.sorted()) are not the manifest's \(expected.sorted())") }
    let outside = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
    guard outside.allSatisfy({ $0.hasPrefix(manifest.app) || $0.hasPrefix("bundle-rollout.seed") }) else { fatalError("the install wrote \(outside.sorted())") }
    return 0
}
