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
    init(_ name: String, _ valueName: String, repeatable: Bool = false, default defaultValue: String? = nil, help: String...) {
        self.init(name: name, valueName: valueName, help: help, defaultValue: defaultValue, repeatable: repeatable, kind: .text)
    }

    private init(name: String, valueName: String, help: [String], defaultValue: String?, repeatable: Bool, kind: Kind) {
        self.name = name
        self.valueName = valueName
        self.help = help
        self.defaultValue = defaultValue
        self.repeatable = repeatable
        self.kind = kind
    }

    /// An option without a value (`--offline`).
    static func flag(_ name: String, help: String...) -> Option {
        Option(name: name, valueName: "", help: help, defaultValue: nil, repeatable: false, kind: .flag)
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

/// An option whose value is a whole number above 0, with the number it has when not given
/// (`-n N`, default 1000): read with ``ParsedArguments/positive(_:)``.
struct PositiveOption: Sendable {
    /// The declaration, for the command's list.
    let option: Option
    /// The number when the option is not given.
    let defaultValue: Int

    init(_ name: String, _ valueName: String, default defaultValue: Int, help: String) {
        option = Option(name, valueName, default: "\(defaultValue)", help: help)
        self.defaultValue = defaultValue
    }
}
