import ScriptTesting

/// A usage error: a one-line message for standard error, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}

/// A command's arguments, parsed against its declared options: positionals in order, the
/// options' values by name.
struct ParsedArguments {
    /// The command, for messages.
    var command: String
    var positionals: [String] = []
    private var values: [String: [String]] = [:]

    /// The last value of an option.
    func value(_ option: Option) -> String? { values[option.name]?.last }
    /// Every value of a repeatable option, in order.
    func all(_ option: Option) -> [String] { values[option.name] ?? [] }
    /// Whether a flag was given.
    func flag(_ option: Option) -> Bool { values[option.name] != nil }

    /// A positive option's number: its value, else its default.
    func positive(_ positive: PositiveOption) throws(UsageError) -> Int {
        guard let text = value(positive.option) else { return positive.defaultValue }
        guard let n = Int(text), n > 0 else {
            throw UsageError("pushscript \(command): \(positive.option.name) takes a positive whole number, not '\(text)'")
        }
        return n
    }

    /// Whether `arguments` ask for the usage: `--help` or `-h` where an option may stand —
    /// not as an option's value (`--lib --help` names a folder), not after `--`. Any other
    /// argument, even an unknown option, does not stop it.
    static func asksForUsage(_ arguments: [String], options: [Option]) -> Bool {
        let takingValues = Set(options.filter(\.takesValue).map(\.name))
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if argument == "--" { return false }
            if Option.usageRequestNames.contains(argument) { return true }
            if takingValues.contains(argument) { i += 1 }
        }
        return false
    }

    /// Parses `arguments` for `command` against its options. `--` ends the options.
    static func parse(_ arguments: [String], command: String, options: [Option]) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: command)
        let declared = Dictionary(uniqueKeysWithValues: options.map { ($0.name, $0) })
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
            guard let option = declared[name] else {
                let hint = NearestName.hint(for: name, among: options.map(\.name)).map { " \($0)" } ?? ""
                throw UsageError("pushscript \(command): unknown option '\(name)';\(hint) run 'pushscript \(command) --help' for the options")
            }
            let value: String
            if !option.takesValue {
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
            if !option.repeatable, parsed.values[name] != nil {
                throw UsageError("pushscript \(command): option '\(name)' is given twice; give it once")
            }
            parsed.values[name, default: []].append(value)
        }
        return parsed
    }
}
