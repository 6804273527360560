/// A subcommand of `pushscript`.
protocol Command {
    /// Its name (`run`).
    static var name: String { get }
    /// A one-line summary for `pushscript --help`.
    static var summary: String { get }
    /// Its usage text for `--help`.
    static var usage: String { get }
    /// The options it takes (besides `--help`).
    static var options: [OptionSpec] { get }
    /// Runs it; returns the exit status.
    static func run(_ arguments: ParsedArguments) async throws -> Int32
}
