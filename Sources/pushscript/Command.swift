/// A subcommand of `pushscript`.
protocol Command {
    /// Its name (`run`).
    static var name: String { get }
    /// A one-line summary for `pushscript --help`.
    static var summary: String { get }
    /// What `--help` prints before the options: the usage line and what the command does.
    static var description: String { get }
    /// The options it takes besides `--help`, in the order `--help` lists them.
    static var options: [Option] { get }
    /// Runs it; returns how the process ends.
    static func run(_ arguments: ParsedArguments) async throws -> ExitStatus
    /// The commands it groups (`bundle keygen`, …), each named `"<group> <word>"`; none for a
    /// plain command. A group's `--help` lists them (``groupUsage``).
    static var subcommands: [any Command.Type] { get }
}

extension Command {
    static var subcommands: [any Command.Type] { [] }

    /// The word that names it within its group (`keygen` of `bundle keygen`).
    static var word: String { String(name.split(separator: " ").last ?? Substring(name)) }

    /// A group's `--help`: the description, then a line per subcommand.
    static var groupUsage: String {
        let lines = subcommands.map { "  " + $0.word.padding(toLength: 10, withPad: " ", startingAt: 0) + $0.summary }
        return description + "\n\nsubcommands:\n" + lines.joined(separator: "\n")
            + "\n\nRun 'pushscript \(name) SUBCOMMAND --help' for a subcommand's arguments and options."
    }

    /// Its `--help`: the description, then a line per option made from its declaration.
    static var usage: String {
        description + "\n\noptions:\n" + (options + [Option.usageRequest]).flatMap(\.helpLines).joined(separator: "\n")
    }
}
