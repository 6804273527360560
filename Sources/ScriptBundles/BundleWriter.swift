/// Makes containers: signed bundles and revocations.
public enum BundleWriter {
    /// A failure to sign.
    public struct SigningFailed: Error, Sendable, CustomStringConvertible {
        public var description: String { "the signature could not be made (libcrypto failed)" }
    }

    /// A bundle of `manifest` (its ``BundleManifest/keyID`` is set to `key`'s) and its files'
    /// bytes by path; the manifest's sizes and SHA-256s are those of the bytes given.
    public static func bundle(
        _ manifest: BundleManifest, contents: [String: [UInt8]], key: SigningKey, crypto: any BundleCrypto = PlatformCrypto.shared
    ) throws(SigningFailed) -> [UInt8] {
        var manifest = manifest
        manifest.keyID = key.id
        manifest.files = manifest.files.map { file in
            var file = file
            let bytes = contents[file.path] ?? []
            file.size = bytes.count
            file.sha256 = crypto.sha256Hex(bytes)
            return file
        }
        let ordered = manifest.files.map { contents[$0.path] ?? [] }
        return try signed(SignedDocument.signedBytes(manifest), key: key, files: ordered, crypto: crypto)
    }

    /// A revocation of `revocation.version` (its key id set to `key`'s).
    public static func revocation(
        _ revocation: Revocation, key: SigningKey, crypto: any BundleCrypto = PlatformCrypto.shared
    ) throws(SigningFailed) -> [UInt8] {
        var revocation = revocation
        revocation.keyID = key.id
        return try signed(SignedDocument.signedBytes(revocation), key: key, files: [], crypto: crypto)
    }

    /// A container of any signed bytes and files, signed by `key` under `keyID` (the key's own
    /// when nil): unchecked, so that tests can make hostile bundles that are validly signed.
    package static func signed(
        _ document: [UInt8], key: SigningKey, keyID: KeyID? = nil, files: [[UInt8]], crypto: any BundleCrypto = PlatformCrypto.shared
    ) throws(SigningFailed) -> [UInt8] {
        guard let signature = key.sign(document, crypto: crypto) else { throw SigningFailed() }
        return BundleContainer.encode(signed: document, keyID: keyID ?? key.id, signature: signature, files: files)
    }
}
