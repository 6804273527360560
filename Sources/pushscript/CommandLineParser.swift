/// A usage error: a one-line message for standard error, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// An option a command takes: one that takes a value (`--name VALUE` or `--name=VALUE`), or a
/// flag that takes none (`--name`).
struct OptionSpec {
    /// `--name`.
    let name: String
    /// Whether it may be given more than once.
    let repeatable: Bool
    /// Whether it takes a value.
    var takesValue = true

    static func value(_ name: String, repeatable: Bool = false) -> OptionSpec {
        OptionSpec(name: name, repeatable: repeatable)
    }

    /// An option without a value (`--offline`).
    static func flag(_ name: String) -> OptionSpec {
        OptionSpec(name: name, repeatable: false, takesValue: false)
    }
}

/// A command's arguments, parsed: positionals in order, options by name.
struct ParsedArguments {
    var positionals: [String] = []
    var values: [String: [String]] = [:]

    /// The last value of an option.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable option.
    func all(_ name: String) -> [String] { values[name] ?? [] }
    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { values[name] != nil }

    /// Parses `arguments` for `command` against its options. `--` ends the options.
    static func parse(_ arguments: [String], command: String, options: [OptionSpec]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        let specs = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
        var i = 0
        var onlyPositionals = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inline: String?
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<eq])
                inline = String(argument[argument.index(after: eq)...])
            }
            guard let spec = specs[name] else {
                throw UsageError("pushscript \(command): unknown option '\(name)'; run 'pushscript \(command) --help' for the options")
            }
            let value: String
            if !spec.takesValue {
                guard inline == nil else {
                    throw UsageError("pushscript \(command): option '\(name)' takes no value; give it alone")
                }
                value = ""
            } else if let inline {
                value = inline
            } else {
                guard i < arguments.count else {
                    throw UsageError("pushscript \(command): option '\(name)' needs a value; run 'pushscript \(command) --help'")
                }
                value = arguments[i]
                i += 1
            }
            if !spec.repeatable, parsed.values[name] != nil {
                throw UsageError("pushscript \(command): option '\(name)' is given twice; give it once")
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }
}
