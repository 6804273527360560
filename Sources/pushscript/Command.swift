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
}

extension Command {
    /// Its `--help`: the description, then a line per option made from its declaration.
    static var usage: String {
        description + "\n\noptions:\n" + (options + [Option.usageRequest]).flatMap(\.helpLines).joined(separator: "\n")
    }
}
