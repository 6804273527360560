/// One option of a command, declared once: parsing and `--help` both read the declaration.
///
/// A command lists its options (``Command/options``); ``ParsedArguments/parse(_:command:options:)``
/// reads the arguments against that list and ``Command/usage`` prints the list's lines, so an
/// option cannot be taken without being shown, or shown without being taken.
struct Option: Sendable {
    /// What an option's value is.
    enum Kind: Sendable {
        /// No value: given or not (`--offline`).
        case flag
        /// Any text (`--app ID`).
        case text
        /// A whole number above 0 (`-n N`); read with ``ParsedArguments/positive(_:command:)``.
        case positive
    }

    /// `--name`, or `-n`.
    let name: String
    /// What the value is called in `--help` (`DIR`); empty for a flag.
    let valueName: String
    /// The lines after the name in `--help`; the first stands beside it.
    private(set) var help: [String]
    /// What the value is when the option is not given, as `--help` says it (`(default 16)`).
    let defaultValue: String?
    /// Whether it may be given more than once.
    let repeatable: Bool
    /// What its value is.
    let kind: Kind

    /// An option that takes a value: `--name VALUE` or `--name=VALUE`.
    init(_ name: String, _ valueName: String, _ kind: Kind = .text, repeatable: Bool = false, default defaultValue: String? = nil, help: String...) {
        self.name = name
        self.valueName = valueName
        self.kind = kind
        self.repeatable = repeatable
        self.defaultValue = defaultValue
        self.help = help
    }

    /// An option without a value (`--offline`).
    static func flag(_ name: String, help: String...) -> Option {
        var option = Option(name, "", .flag)
        option.help = help
        return option
    }

    /// The same option with other help lines (`check --lib` says it for modules only).
    func withHelp(_ lines: String...) -> Option {
        var option = self
        option.help = lines
        return option
    }

    /// Whether it takes a value.
    var takesValue: Bool { kind != .flag }

    /// Its lines in `--help`: the name and value name in a column 22 wide, then the help,
    /// further lines under the first; the default, when there is one, ends the first line.
    var helpLines: [String] {
        let label = valueName.isEmpty ? name : "\(name) \(valueName)"
        let column = String(repeating: " ", count: Self.helpColumn)
        var lines = help
        if let defaultValue, !lines.isEmpty { lines[0] += " (default \(defaultValue))" }
        return lines.enumerated().map { index, line in
            index == 0 ? "  " + label.padding(toLength: max(Self.helpColumn - 2, label.count + 1), withPad: " ", startingAt: 0) + line : column + line
        }
    }

    /// Where the help text of an option starts in `--help`.
    static let helpColumn = 24

    /// `--help` (or `-h`), the last line of every command's options: a request for the usage
    /// wherever an option may stand, but a value where an option's value stands.
    static let usageRequest = Option.flag("--help", help: "this help")

    /// The names that ask for the usage.
    static let usageRequestNames: Set<String> = ["--help", "-h"]
}
