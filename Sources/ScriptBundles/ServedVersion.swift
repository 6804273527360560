import Foundation
import ScriptHost

/// An installed version ready to serve: its script, as checked against its signed manifest,
/// and what it narrows.
struct ServedVersion: Sendable {
    let version: Int
    let script: Script
    let narrowing: Narrowing
}

/// What an installed version asks of the host for each request it answers: its limits (each at
/// most the host's), its hosts (within the host's), and its media folder as the media directory.
struct Narrowing: Sendable {
    var limits: RequestedLimits
    var allowHTTP: [String]?
    var allowPost: [String]?
    var mediaDirectory: URL?

    init(_ manifest: BundleManifest, folder: URL) {
        limits = manifest.limits
        allowHTTP = manifest.allowHTTP
        allowPost = manifest.allowPost
        mediaDirectory = manifest.hasMedia ? folder.appendingPathComponent("media", isDirectory: true) : nil
    }

    /// The request as this version runs it.
    func apply(to request: inout NotificationRequest, hostLimits: ScriptLimits) {
        if !limits.isEmpty { request.limits = limits.narrowing(request.limits ?? hostLimits) }
        if let allowHTTP { request.httpHostsBound = Set(allowHTTP) }
        if let allowPost { request.postHostsBound = Set(allowPost) }
        if let mediaDirectory { request.mediaDirectory = mediaDirectory }
    }
}

/// Loads an installed version from its folder, checking it again as an install did: the signed
/// part of its bundle against the keys trusted now, then its script and modules against the
/// manifest's SHA-256s and its media files against their sizes. A version signed by a key no
/// longer trusted is not served.
enum VersionLoader {
    static func load(
        _ installed: InstalledVersion, layout: StateLayout, trust: TrustedKeys, crypto: any BundleCrypto
    ) -> Result<ServedVersion, LoadFailure> {
        let folder = layout.folder(installed.version)
        let name = "\(layout.app) version \(installed.version)"
        guard trust.key(installed.keyID) != nil else {
            return .failure(LoadFailure("\(name) is signed by key \(installed.keyID), which is not trusted now"))
        }
        let envelopeLimit = BundleContainer.headerSize + BundleContainer.maximumSignedBytes + BundleContainer.trailerSize
        guard let envelope = read(folder.appendingPathComponent(StateLayout.envelopeName), limit: envelopeLimit) else {
            return .failure(LoadFailure("\(name): its signed manifest cannot be read from \(folder.path)"))
        }
        let manifest: BundleManifest
        do throws(BundleRefusal) {
            let parts = try BundleContainer.split(envelope)
            guard parts.payload.isEmpty else { throw malformed("the kept manifest is followed by other bytes") }
            guard case .manifest(let m) = try BundleVerifier(trust: trust, crypto: crypto).verifySignature(parts) else {
                throw malformed("the kept document is not a manifest")
            }
            manifest = m
        } catch {
            return .failure(LoadFailure("\(name): its kept manifest is refused: \(error.description)"))
        }
        guard manifest.app == layout.app, manifest.version == installed.version, let scriptEntry = manifest.script,
              scriptEntry.sha256 == installed.sha256 else {
            return .failure(LoadFailure("\(name): its kept manifest is for another version"))
        }
        var source: [UInt8] = []
        for file in manifest.files {
            let url = folder.appendingPathComponent(file.path, isDirectory: false)
            switch file.kind {
            case .script, .module:
                guard let bytes = read(url, limit: file.size), bytes.count == file.size, crypto.sha256Hex(bytes) == file.sha256 else {
                    return .failure(LoadFailure("\(name): \(file.path) is missing or is not the file its manifest signed"))
                }
                if file.kind == .script { source = bytes }
            case .media:
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
                guard size == file.size else {
                    return .failure(LoadFailure("\(name): \(file.path) is missing or not the size its manifest signed"))
                }
            }
        }
        let script = Script(name: scriptEntry.path, source: source, directory: folder, version: installed.version)
        return .success(ServedVersion(version: installed.version, script: script, narrowing: Narrowing(manifest, folder: folder)))
    }

    /// Reads at most `limit` bytes of a file; nil when it cannot be read or is longer.
    static func read(_ url: URL, limit: Int) -> [UInt8]? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: limit + 1) else { return limit == 0 ? [] : nil }
        guard data.count <= limit else { return nil }
        return [UInt8](data)
    }
}

/// Why an installed version cannot be served.
struct LoadFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
