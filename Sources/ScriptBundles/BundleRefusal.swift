/// Why a bundle or revocation is refused: a kind that says what failed, and a message that says
/// what exactly and what to do next. Printed as one line, ``description``:
/// `refused: bad signature: …`.
public struct BundleRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// What failed.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The file is not a bundle or revocation of this format, or breaks its rules.
        case malformed
        /// Signed by a key the host does not trust.
        case unknownKey = "unknown key"
        /// The signature does not verify: the manifest was changed, or signed by another key.
        case badSignature = "bad signature"
        /// A file's bytes are not what the signed manifest says.
        case fileMismatch = "file does not match"
        /// The manifest's expiry time has passed.
        case expired
        /// The manifest asks for a newer host than this one.
        case hostTooOld = "host too old"
        /// The bundle is for another app than the one installing it.
        case otherApp = "other app"
        /// The version is not above the installed one.
        case notNewer = "not newer"
        /// The version was rolled back on this device.
        case rolledBack = "rolled back"
        /// The version was revoked.
        case revoked
        /// The bundle asks for more than the host allows (limits or hosts).
        case wider
        /// The installed state cannot be read or written.
        case state
    }

    /// What failed.
    public let kind: Kind
    /// What exactly, and what to do.
    public let message: String

    /// A refusal.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The line: `refused: <kind>: <message>`.
    public var description: String { "refused: \(kind.rawValue): \(message)" }
}
