import Foundation
import ScriptTesting

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
    BundleCommand.self,
]

/// What `pushscript --help` prints; made only when asked for (a run does not pay for it).
var mainUsage: String { """
    usage: pushscript COMMAND [ARGUMENTS] [OPTIONS]

    Runs the logic of an iOS Notification Service Extension as a sandboxed Lua script.

    commands:
    \(commands.map { "  " + $0.name + String(repeating: " ", count: max(0, 9 - $0.name.count)) + $0.summary }.joined(separator: "\n"))

    Run 'pushscript COMMAND --help' for a command's arguments and options.
    """
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let first = arguments.first else {
    printError("pushscript: no command given; run 'pushscript --help' for the commands")
    ExitStatus.usageError.exit()
}
if Option.usageRequestNames.contains(first) || first == "help" {
    print(mainUsage)
    ExitStatus.success.exit()
}
guard var command = commands.first(where: { $0.name == first }) else {
    let names: [String] = commands.map { $0.name }
    let suggestion = NearestName.hint(for: first, among: names).map { " " + $0 } ?? ""
    printError("pushscript: unknown command '\(first)';\(suggestion) run 'pushscript --help' for the commands")
    ExitStatus.usageError.exit()
}
var rest = Array(arguments.dropFirst())
if !command.subcommands.isEmpty {
    // A group: the next word names the subcommand.
    guard let word = rest.first else {
        printError("pushscript \(command.name): no subcommand given; run 'pushscript \(command.name) --help' for the subcommands")
        ExitStatus.usageError.exit()
    }
    if Option.usageRequestNames.contains(word) || word == "help" {
        print(command.groupUsage)
        ExitStatus.success.exit()
    }
    guard let subcommand = command.subcommands.first(where: { $0.word == word }) else {
        let words: [String] = command.subcommands.map { $0.word }
        let suggestion = NearestName.hint(for: word, among: words).map { " " + $0 } ?? ""
        printError("pushscript \(command.name): unknown subcommand '\(word)';\(suggestion) run 'pushscript \(command.name) --help' for the subcommands")
        ExitStatus.usageError.exit()
    }
    command = subcommand
    rest.removeFirst()
}
if ParsedArguments.asksForUsage(rest, options: command.options) {
    print(command.usage)
    ExitStatus.success.exit()
}
do {
    let parsed = try ParsedArguments.parse(rest, command: command.name, options: command.options)
    try await command.run(parsed).exit()
} catch let error as UsageError {
    printError(error.message)
    ExitStatus.usageError.exit()
} catch {
    printError("pushscript \(command.name): \(error)")
    ExitStatus.usageError.exit()
}
