/// The `.psbundle` file: one file that holds a signed document (a bundle's manifest or a
/// revocation) and, for a bundle, its files. Integers are big-endian.
///
/// ```
/// offset      size  what
/// 0           8     "PSBUNDLE"
/// 8           2     the container format, 1
/// 10          4     S, the length of the signed document (1 to 65,536)
/// 14          S     the signed document: a format tag line, then canonical JSON
///                   ("pushscript-bundle-manifest-1\n{...}" or "pushscript-bundle-revocation-1\n{...}")
/// 14+S        8     the id of the key that signed it
/// 22+S        64    the Ed25519 signature of the S bytes of the signed document
/// 86+S        …     the files' bytes, one after another in the manifest's order, nothing between
///                   and nothing after (a revocation has none)
/// ```
///
/// Reading it is bounded before anything is allocated: the header's length is checked against
/// the file's, and files are only ever slices of the bytes read.
public enum BundleContainer {
    /// The first 8 bytes.
    public static let magic: [UInt8] = Array("PSBUNDLE".utf8)
    /// The container format this host reads and writes.
    public static let formatVersion: UInt16 = 1
    /// The largest signed document: 64 KiB.
    public static let maximumSignedBytes = 64 << 10
    /// The bytes before the signed document.
    static let headerSize = 14
    /// The bytes between the signed document and the files: key id and signature.
    static let trailerSize = KeyID.size + CryptoSizes.signature
    /// The largest container: the largest document, trailer and files.
    public static let maximumSize = headerSize + maximumSignedBytes + trailerSize + BundleManifest.maximumTotalSize

    /// The tag line a bundle's manifest starts with.
    public static let manifestTag: [UInt8] = Array("pushscript-bundle-manifest-1\n".utf8)
    /// The tag line a revocation starts with.
    public static let revocationTag: [UInt8] = Array("pushscript-bundle-revocation-1\n".utf8)

    /// A container's parts, as slices of its bytes.
    public struct Parts: Sendable {
        /// The signed document: tag line and canonical JSON.
        public let signed: ArraySlice<UInt8>
        /// The key id the container names.
        public let keyID: KeyID
        /// The signature.
        public let signature: ArraySlice<UInt8>
        /// The files' bytes.
        public let payload: ArraySlice<UInt8>
        /// Everything before the files (header, document, key id, signature): what an installed
        /// version keeps to verify itself again.
        public let envelope: ArraySlice<UInt8>
    }

    /// Splits a container into its parts; a ``BundleRefusal/Kind/malformed`` refusal when its
    /// framing is wrong.
    public static func split(_ bytes: [UInt8]) throws(BundleRefusal) -> Parts {
        guard bytes.count >= headerSize, bytes.starts(with: magic) else {
            throw malformed("not a PushScript bundle (it does not start with PSBUNDLE); give a file that 'pushscript bundle build' or 'bundle revoke' wrote")
        }
        guard bytes.count <= maximumSize else {
            throw malformed("the file is \(bytes.count) bytes; a bundle is at most \(maximumSize) bytes")
        }
        let format = UInt16(bytes[8]) << 8 | UInt16(bytes[9])
        guard format == formatVersion else {
            throw malformed("the container format is \(format); this host reads format \(formatVersion)")
        }
        let length = Int(bytes[10]) << 24 | Int(bytes[11]) << 16 | Int(bytes[12]) << 8 | Int(bytes[13])
        guard (1...maximumSignedBytes).contains(length) else {
            throw malformed("the signed document's length is \(length); it is 1 to \(maximumSignedBytes) bytes")
        }
        let documentEnd = headerSize + length
        guard documentEnd + trailerSize <= bytes.count else {
            throw malformed("the file ends before the signature (\(bytes.count) bytes, the header asks for \(documentEnd + trailerSize) at least)")
        }
        let keyEnd = documentEnd + KeyID.size
        let signatureEnd = keyEnd + CryptoSizes.signature
        return Parts(
            signed: bytes[headerSize..<documentEnd], keyID: KeyID(bytes: Array(bytes[documentEnd..<keyEnd]))!,
            signature: bytes[keyEnd..<signatureEnd], payload: bytes[signatureEnd...], envelope: bytes[..<signatureEnd])
    }

    /// A container of a signed document, its key id and signature, and the files' bytes.
    public static func encode(signed: [UInt8], keyID: KeyID, signature: [UInt8], files: [[UInt8]] = []) -> [UInt8] {
        var out = magic
        out += [UInt8(formatVersion >> 8), UInt8(formatVersion & 0xFF)]
        let length = UInt32(signed.count)
        out += [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        out += signed
        out += keyID.bytes
        out += signature
        for file in files { out += file }
        return out
    }
}
