import Foundation

/// A script's source, as loaded: its name for error messages and its bytes.
public struct Script: Sendable, Hashable {
    /// The name errors are reported under (`rules.lua:12: ...`): the file's name.
    public let name: String
    /// The Lua source text.
    public let source: [UInt8]
    /// A hash of the source: compiled chunks are cached by it.
    public let hash: Int
    /// The SHA-256 of the source, in lower-case hex: what a result's `script.sha256` says.
    public let sha256: String
    /// The installed bundle version this script is, or nil for the app's own (baseline)
    /// script: what a result's `script.version` says.
    public var version: Int?
    /// The folder the script was read from: `require "name"` looks for `name.lua` there first.
    /// Nil for a script that comes from no file (then only library folders and bundled
    /// modules are searched).
    public var directory: URL?

    /// The largest source a script may have: 1 MiB.
    public static let maximumSize = 1 << 20

    /// A script from its name and source text, and the folder its modules are looked up in.
    public init(name: String, source: [UInt8], directory: URL? = nil, version: Int? = nil) {
        self.name = name
        self.source = source
        self.directory = directory
        self.version = version
        self.sha256 = Digest.sha256(source).map(Hex.encode) ?? ""
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(name)
        self.hash = hasher.finalize()
    }

    /// A script from its name and source text.
    public init(name: String, source: String, directory: URL? = nil, version: Int? = nil) {
        self.init(name: name, source: Array(source.utf8), directory: directory, version: version)
    }

    /// Which script this is, as a result names it.
    public var identity: ScriptIdentity { ScriptIdentity(version: version, sha256: sha256) }

    /// Reads a script file. Throws a ``ScriptLoadError`` naming the file when it cannot.
    public init(contentsOf url: URL) throws(ScriptLoadError) {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ScriptLoadError(message: "cannot read script \(url.path): \(Self.reason(error))")
        }
        self.init(name: url.lastPathComponent, source: [UInt8](data), directory: url.deletingLastPathComponent())
    }

    static func reason(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        if ns.domain == NSCocoaErrorDomain, ns.code == NSFileReadNoSuchFileError { return "no such file" }
        return ns.localizedDescription
    }
}

/// A script that could not be read.
public struct ScriptLoadError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public let message: String
    /// A load error.
    public init(message: String) { self.message = message }
    public var description: String { message }
}
