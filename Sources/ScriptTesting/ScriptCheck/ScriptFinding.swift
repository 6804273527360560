/// One thing `pushscript check` reports about a script. Writing it as a line is
/// ``line(file:)``'s job.
public struct ScriptFinding: Sendable, Hashable {
    /// What was found.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The script does not compile (or is too large to): an error.
        case compile
        /// The script defines no `didReceive`: an error.
        case missingHandler
        /// A global the sandbox does not have is read, and the script never sets it: a warning.
        case unknownGlobal
        /// A field of a library table, or of a bundled module, that it does not have is read
        /// (`json.decod`, `providers.aply`): a warning.
        case unknownField
        /// A global other than a handler is assigned: a warning.
        case globalWrite
        /// A global function or value is assigned whose name is a handler's misspelt
        /// (`didRecieve`, `bestAttemp`, `afterDelivry`): never called. A warning.
        case misspeltHandler
        /// A call passes a list where it takes a table of named options
        /// (`download(url, {"image"})` for `{kinds = {"image"}}`): a warning.
        case listOptions
        /// A field or method that notification content does not have is used on a handler's
        /// `content` (`content.titel`): a warning.
        case unknownContentField
        /// The checker could not follow the source to check its globals: a warning.
        case unchecked
        /// A `require` names no module that can be found (a bad name, no such file): an error.
        case module
    }

    /// How bad a finding is.
    public enum Severity: String, Sendable, Hashable {
        /// The script never runs as it is.
        case error
        /// The script runs, but likely not as meant.
        case warning
    }

    /// What was found.
    public let kind: Kind
    /// The 1-based line it is on, when it is on one.
    public let line: Int?
    /// A one-line, lower-case message.
    public let message: String

    /// A finding.
    public init(_ kind: Kind, line: Int?, _ message: String) {
        self.kind = kind
        self.line = line
        self.message = message
    }

    /// Errors for a script that does not compile or has no handler; warnings for the rest.
    public var severity: Severity {
        switch kind {
        case .compile, .missingHandler, .module: .error
        case .unknownGlobal, .unknownField, .globalWrite, .misspeltHandler, .listOptions, .unknownContentField, .unchecked: .warning
        }
    }

    /// The line `pushscript check` prints: `file:line: message` for a compile error (Lua's own
    /// message, as `luac -p` prints it), else `file:line: severity: message`, or
    /// `file: severity: message` when the finding has no line.
    public func line(file: String) -> String {
        let place = line.map { "\(file):\($0)" } ?? file
        if kind == .compile { return "\(place): \(message)" }
        return "\(place): \(severity.rawValue): \(message)"
    }
}
