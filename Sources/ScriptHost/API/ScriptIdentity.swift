/// Which script answered a request: the installed bundle version (nil for the app's own,
/// baseline script) and the SHA-256 of its source. A result's `script` (SPEC section 6).
public struct ScriptIdentity: Sendable, Hashable {
    /// The installed bundle version, or nil for the baseline script.
    public var version: Int?
    /// The SHA-256 of the script's source, lower-case hex.
    public var sha256: String

    /// An identity.
    public init(version: Int?, sha256: String) {
        self.version = version
        self.sha256 = sha256
    }
}
