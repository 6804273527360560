/// A name a script passes to `require`: parts of letters, digits, `_` and `-`, joined by single
/// dots (`"util"`, `"lib.strings"`, `"pushscript.providers"`). Dots become folders
/// (`lib/strings.lua`); nothing else a path could use (`..`, `/`, a leading `/`) is accepted.
public struct ModuleName: Sendable, Hashable, CustomStringConvertible {
    /// The name as written.
    public let text: String
    /// Its dot-separated parts.
    public let parts: [String]

    /// The longest name accepted.
    public static let maximumLength = 200
    /// The prefix of the modules shipped with PushScript.
    public static let bundledPrefix = "pushscript."

    /// Checks a name; the error says what is wrong and what a name may hold.
    public init(_ text: String) throws(ModuleError) {
        let rule = "use letters, digits, '_' and '-' in parts joined by single dots, like \"lib.util\""
        guard !text.isEmpty else { throw ModuleError("bad module name '': \(rule)") }
        guard text.utf8.count <= Self.maximumLength else {
            throw ModuleError("bad module name '\(text.prefix(40))…': at most \(Self.maximumLength) characters")
        }
        let shown = ModuleError.quoted(text)
        if text.hasPrefix("/") { throw ModuleError("bad module name '\(shown)': an absolute path is not a module name; \(rule)") }
        if text.contains("..") { throw ModuleError("bad module name '\(shown)': '..' is not allowed; \(rule)") }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            guard !part.isEmpty, part.utf8.allSatisfy({ Self.allowed($0) }) else {
                throw ModuleError("bad module name '\(shown)': \(rule)")
            }
        }
        self.text = text
        self.parts = parts
    }

    /// Whether the name asks for a module shipped with PushScript (`pushscript.NAME`).
    public var isBundled: Bool { text.hasPrefix(Self.bundledPrefix) }

    /// The file the name means below a folder: `lib/strings.lua` for `lib.strings`.
    public var relativePath: String { parts.joined(separator: "/") + ".lua" }

    public var description: String { text }

    private static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

/// Why `require` could not give a module: a bad name, no such module, a module that does not
/// compile.
public struct ModuleError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, one line.
    public let message: String
    /// An error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }

    /// A name as shown in a message: control characters escaped, so the message stays one line.
    static func quoted(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7f { out += "\\" + String(scalar.value) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
