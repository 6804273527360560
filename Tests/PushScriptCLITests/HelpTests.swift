import Foundation
import TestSupport
import Testing

/// `--help` of `pushscript` and of every command it lists: usage on standard output, exit 0,
/// the text as in the golden files.
@Suite(.serialized) struct HelpTests {
    private func listedCommands() async throws -> [String] { try await CLI.listedCommands() }

    @Test func mainHelp() async throws {
        let out = try await CLI.run(["--help"])
        #expect(out.status == 0)
        #expect(out.stderr == "")
        try Golden.check(out.stdout, against: "pushscript.txt")
        #expect(try await listedCommands().starts(with: ["run", "test"]))
        #expect(try await Set(listedCommands()).isSuperset(of: ["run", "test", "bench", "serve"]))
    }

    @Test func everyCommandsHelp() async throws {
        var subcommands: [String] = []
        for command in try await listedCommands() {
            let out = try await CLI.run([command, "--help"])
            #expect(out.status == 0, "\(command): \(out)")
            #expect(out.stderr == "", "\(command)")
            #expect(out.stdout.hasPrefix("usage: pushscript \(command)"), "\(command)")
            try Golden.check(out.stdout, against: "\(command).txt")
            subcommands += try await CLI.listedSubcommands(of: command)
        }
        #expect(subcommands.count == 7, "\(subcommands)")
        for subcommand in subcommands {
            let out = try await CLI.run(subcommand.split(separator: " ").map(String.init) + ["--help"])
            #expect(out.status == 0, "\(subcommand): \(out)")
            #expect(out.stdout.hasPrefix("usage: pushscript \(subcommand)"), "\(subcommand)")
            try Golden.check(out.stdout, against: subcommand.replacingOccurrences(of: " ", with: "-") + ".txt")
        }
    }

    @Test func aGroupNamesItsSubcommandsOrSaysWhatIsWrong() async throws {
        let none = try await CLI.run(["bundle"])
        #expect(none.status == 2)
        #expect(none.errorLines == ["pushscript bundle: no subcommand given; run 'pushscript bundle --help' for the subcommands"])
        let unknown = try await CLI.run(["bundle", "sign"])
        #expect(unknown.status == 2)
        #expect(unknown.errorLines == ["pushscript bundle: unknown subcommand 'sign'; run 'pushscript bundle --help' for the subcommands"])
        let option = try await CLI.run(["bundle", "verify", "--nope"])
        #expect(option.errorLines == ["pushscript bundle verify: unknown option '--nope'; run 'pushscript bundle verify --help' for the options"])
    }

    @Test func helpWinsOverOtherArguments() async throws {
        let out = try await CLI.run(["run", "--no-such-option", "--help"])
        #expect(out.status == 0)
        #expect(out.stdout.hasPrefix("usage: pushscript run"))
        let short = try await CLI.run(["lint", "missing.json", "-h"])
        #expect(short.status == 0)
        #expect(short.stdout.hasPrefix("usage: pushscript lint"))
    }

    @Test func helpAsAnOptionsValueIsThatValue() async throws {
        let scratch = try scriptAndPayload("function didReceive(request, content) end")
        let (script, payload) = (scratch.script, scratch.payload)
        let out = try await CLI.run(["run", script, payload, "--lib", "--help"])
        #expect(out.status == 2)
        #expect(out.stdout == "")
        #expect(out.errorLines == ["pushscript run: --lib --help is not a folder; give a folder of .lua modules"])

        let filtered = try await CLI.run(["test", "--filter", "-h", scratch.url.path])
        #expect(filtered.lines == ["0 passed, 0 failed"], "\(filtered)")
    }

    @Test func helpAfterTheEndOfOptionsIsAnArgument() async throws {
        let out = try await CLI.run(["lint", "--", "--help"])
        #expect(out.status == 2)
        #expect(out.errorLines.first == "pushscript lint: cannot read --help; check the path")
    }
}
