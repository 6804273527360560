import Foundation
import TestSupport
import Testing

/// `docs/command-line.md` against the built binary's `--help`: every command has a section,
/// and each section names exactly the options its command takes.
@Suite(.serialized) struct CommandLineDocTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The page's `## ` sections by heading.
    static func sections(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for part in text.components(separatedBy: "\n## ").dropFirst() {
            let heading = String(part.prefix { $0 != "\n" })
            out[heading] = String(part.dropFirst(heading.count))
        }
        return out
    }

    /// The options a text names in code spans (`--cpu-ms N` → `--cpu-ms`, `-n N` → `-n`).
    static func options(inDoc text: String) -> Set<String> {
        let spans = text.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
        return Set(spans.compactMap { span -> String? in
            guard span.element.hasPrefix("-"), let word = span.element.split(separator: " ").first else { return nil }
            let name = word.split(separator: "=").first.map(String.init) ?? String(word)
            return name.count > 1 && name != "--" ? name : nil
        })
    }

    /// The options a `--help` text lists under `options:`, `--help` left out.
    static func options(inHelp text: String) -> Set<String> {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "options:") else { return [] }
        return Set(lines[(start + 1)...].compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            guard trimmed.hasPrefix("-"), let word = trimmed.split(separator: " ").first else { return nil }
            return word == "--help" ? nil : String(word)
        })
    }

    @Test func everyCommandAndOptionIsDocumented() async throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/command-line.md"), encoding: .utf8)
        let sections = Self.sections(page)
        let host = try #require(sections["Host options"], "docs/command-line.md has no '## Host options' section")
        let hostOptions = Self.options(inDoc: host)
        let commands = try await CLI.listedCommands()
        try #require(commands.count >= 8)
        var subcommands: [String] = []
        for command in commands { subcommands += try await CLI.listedSubcommands(of: command) }
        let documented = Set(sections.keys.filter { $0.hasPrefix("`pushscript ") }.map { String($0.dropFirst(12).dropLast()) })
        #expect(documented == Set(commands + subcommands), "sections of docs/command-line.md: \(documented.sorted()); commands: \(commands + subcommands)")
        for command in commands + subcommands {
            guard let section = sections["`pushscript \(command)`"] else { continue }
            let help = try await CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
            let taken = Self.options(inHelp: help.stdout)
            var named = Self.options(inDoc: section)
            if section.contains("[host options]") { named.formUnion(hostOptions) }
            #expect(taken.subtracting(named).isEmpty, "\(command): options in --help but not in its section: \(taken.subtracting(named).sorted())")
            #expect(named.subtracting(taken).isEmpty, "\(command): options in its section that --help lacks: \(named.subtracting(taken).sorted())")
        }
    }

    @Test func theReadersSeeOptions() {
        #expect(Self.options(inDoc: "`--cpu-ms N`, `-n N`, `--cpu-ms=50`, `--`, `-`, `x`") == ["--cpu-ms", "-n"])
        #expect(Self.options(inHelp: "usage\n\noptions:\n  --out FILE   where\n  -n N   count\n  --help   this help\n") == ["--out", "-n"])
        #expect(Self.sections("# t\n\n## A\ntext\n## `pushscript run`\nmore") == ["A": "\ntext", "`pushscript run`": "\nmore"])
    }
}
