import Foundation
import Testing

/// `--help` of `pushscript` and of every command it lists: usage on standard output, exit 0,
/// the text as in the golden files.
@Suite(.serialized) struct HelpTests {
    /// The commands `pushscript --help` lists.
    private func listedCommands() async throws -> [String] {
        let out = try await CLI.run(["--help"])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "commands:") else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test func mainHelp() async throws {
        let out = try await CLI.run(["--help"])
        #expect(out.status == 0)
        #expect(out.stderr == "")
        try Golden.check(out.stdout, against: "pushscript.txt")
        #expect(try await listedCommands().starts(with: ["run", "test"]))
        #expect(try await Set(listedCommands()).isSuperset(of: ["run", "test", "bench", "serve"]))
    }

    @Test func everyCommandsHelp() async throws {
        for command in try await listedCommands() {
            let out = try await CLI.run([command, "--help"])
            #expect(out.status == 0, "\(command): \(out)")
            #expect(out.stderr == "", "\(command)")
            #expect(out.stdout.hasPrefix("usage: pushscript \(command)"), "\(command)")
            try Golden.check(out.stdout, against: "\(command).txt")
        }
    }

    @Test func helpWinsOverOtherArguments() async throws {
        let out = try await CLI.run(["run", "--no-such-option", "--help"])
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("usage: pushscript run"))
    }
}
