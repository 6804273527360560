import Foundation

/// The commands, in the order `pushscript --help` lists them (SPEC section 5's order); one
/// per line.
let commands: [any Command.Type] = [
    RunCommand.self,
    TestCommand.self,
    WatchCommand.self,
    LintCommand.self,
    CheckCommand.self,
    PreviewCommand.self,
    BenchCommand.self,
    ServeCommand.self,
]

let mainUsage = """
    usage: pushscript COMMAND [ARGUMENTS] [OPTIONS]

    Runs the logic of an iOS Notification Service Extension as a sandboxed Lua script.

    commands:
    \(commands.map { "  " + $0.name.padding(toLength: 9, withPad: " ", startingAt: 0) + $0.summary }.joined(separator: "\n"))

    Run 'pushscript COMMAND --help' for a command's arguments and options.
    """

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first else {
    printError("pushscript: no command given; run 'pushscript --help' for the commands")
    exit(2)
}
if first == "--help" || first == "-h" || first == "help" {
    print(mainUsage)
    exit(0)
}
guard let command = commands.first(where: { $0.name == first }) else {
    printError("pushscript: unknown command '\(first)'; run 'pushscript --help' for the commands")
    exit(2)
}
let rest = Array(arguments.dropFirst())
if rest.contains("--help") || rest.contains("-h") {
    print(command.usage)
    exit(0)
}
do {
    let parsed = try ParsedArguments.parse(rest, command: command.name, options: command.options)
    let status = try await command.run(parsed)
    exit(status)
} catch let error as UsageError {
    printError(error.message)
    exit(2)
} catch {
    printError("pushscript \(command.name): \(error)")
    exit(2)
}
