import Foundation
import ScriptHost

/// A bundle whose signature, manifest and files were all checked.
public struct VerifiedBundle: Sendable {
    /// The manifest.
    public let manifest: BundleManifest
    /// Each file's bytes, in the manifest's order.
    public let contents: [ArraySlice<UInt8>]
    /// The container up to the files: what an installed version keeps to verify itself again.
    public let envelope: [UInt8]
}

/// What a verified container holds.
public enum VerifiedItem: Sendable {
    /// A bundle.
    case bundle(VerifiedBundle)
    /// A revocation.
    case revocation(Revocation)
}

/// Checks a container, failing closed, in this order: its framing; that the key it names is
/// trusted; the signature over the signed document; the document (format tag, canonical JSON,
/// its rules); that the key id inside is the one outside; for a bundle, that the files' bytes
/// are exactly those the manifest lists (sizes, then each SHA-256), that it has not expired and
/// that this host is new enough. Nothing of a document is read before its signature verifies.
public struct BundleVerifier: Sendable {
    /// The keys trusted.
    public let trust: TrustedKeys
    /// The cryptography.
    public let crypto: any BundleCrypto
    /// This host's version (``ScriptHost/hostVersion``).
    public let hostVersion: Int

    /// A verifier.
    public init(trust: TrustedKeys, crypto: any BundleCrypto = PlatformCrypto.shared, hostVersion: Int = ScriptHost.hostVersion) {
        self.trust = trust
        self.crypto = crypto
        self.hostVersion = hostVersion
    }

    /// Verifies a container at time `now` (seconds since 1970 UTC).
    public func verify(_ bytes: [UInt8], now: Int64 = ManifestClock.now()) throws(BundleRefusal) -> VerifiedItem {
        let parts = try BundleContainer.split(bytes)
        let document = try verifySignature(parts)
        switch document {
        case .revocation(let revocation):
            guard parts.payload.isEmpty else {
                throw malformed("the revocation is followed by \(parts.payload.count) bytes; a revocation holds no files")
            }
            return .revocation(revocation)
        case .manifest(let manifest):
            let contents = try files(of: manifest, in: parts.payload)
            if now > manifest.expires {
                throw BundleRefusal(.expired, "the manifest of \(manifest.app) version \(manifest.version) expired at \(ManifestClock.text(manifest.expires)); build and sign a new bundle")
            }
            if manifest.minimumHostVersion > hostVersion {
                throw BundleRefusal(.hostTooOld, "the bundle needs host version \(manifest.minimumHostVersion) or later; this host is version \(hostVersion), so the app must be updated first")
            }
            return .bundle(VerifiedBundle(manifest: manifest, contents: contents, envelope: Array(parts.envelope)))
        }
    }

    /// The signed document of a container's parts, once its key is trusted and its signature
    /// verifies.
    public func verifySignature(_ parts: BundleContainer.Parts) throws(BundleRefusal) -> SignedDocument {
        guard let key = trust.key(parts.keyID) else {
            let trusted = trust.keys.isEmpty ? "no key is trusted" : "the trusted keys are \(trust.idList)"
            throw BundleRefusal(.unknownKey, "it is signed by key \(parts.keyID), which is not trusted (\(trusted)); trust its KEY.pub or sign with a trusted key")
        }
        guard crypto.isValidSignature(Array(parts.signature), of: Array(parts.signed), publicKey: key.bytes) else {
            throw BundleRefusal(.badSignature, "the signature does not verify with key \(parts.keyID): the manifest was changed after it was signed, or another key signed it; build and sign it again")
        }
        let document = try SignedDocument(signed: parts.signed)
        guard document.keyID == parts.keyID else {
            throw malformed("the manifest names key \(document.keyID) but the container key \(parts.keyID)")
        }
        return document
    }

    /// The files' bytes as the manifest lists them: sizes first (so a claim of a gigabyte costs
    /// nothing), then each SHA-256.
    private func files(of manifest: BundleManifest, in payload: ArraySlice<UInt8>) throws(BundleRefusal) -> [ArraySlice<UInt8>] {
        let declared = manifest.totalSize
        guard declared == payload.count else {
            let more = payload.count > declared
            throw malformed("the bundle holds \(payload.count) bytes of files but its manifest lists \(declared); \(more ? "a file was added, or bytes after the files" : "a file was removed or cut short")")
        }
        var contents: [ArraySlice<UInt8>] = []
        var offset = payload.startIndex
        for file in manifest.files {
            let bytes = payload[offset..<offset + file.size]
            offset += file.size
            guard crypto.sha256Hex(Array(bytes)) == file.sha256 else {
                throw BundleRefusal(.fileMismatch, "\(file.path) is not the file the manifest signed (its SHA-256 differs); build the bundle again")
            }
            contents.append(bytes)
        }
        return contents
    }
}

/// The clock manifests are judged by: whole seconds since 1970 UTC.
public enum ManifestClock {
    /// Now.
    public static func now() -> Int64 { Int64(Date().timeIntervalSince1970.rounded(.down)) }

    /// A time as ISO 8601 UTC (`2026-03-01T12:00:00Z`).
    public static func text(_ seconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
}
