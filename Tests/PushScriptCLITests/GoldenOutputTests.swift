import Foundation
import TestSupport
import Testing

/// What `run`, `serve`, `check` and `lint` print for the bundled examples, against golden files
/// in `Golden/output/` (what varies from run to run normalised: ``Golden/normalised(_:)``).
@Suite(.serialized) struct GoldenOutputTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `pushscript arguments...` run in the repository's folder, with its paths relative.
    private func output(_ arguments: [String], stdin: String = "") async throws -> String {
        Golden.normalised(try await CLI.run(arguments, stdin: stdin, in: Self.root))
    }

    /// The files in `folders` whose names end with `suffix`, as relative paths, sorted.
    private func files(in folders: [String], ending suffix: String) -> [String] {
        folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(suffix) }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    @Test func runDeliversTheQuickStart() async throws {
        let text = try await output([
            "run", "examples/quickstart/com.example.news.lua", "examples/quickstart/payload.json",
            "--media", "https://cdn.example.com/pic.jpg=examples/quickstart/media/pic.jpg",
        ])
        try Golden.check(text, against: "output/run.txt")
    }

    @Test func runDeliversTheQuickStartWithoutItsPicture() async throws {
        let text = try await output(["run", "examples/quickstart/com.example.news.lua", "examples/quickstart/payload.json", "--offline"])
        try Golden.check(text, against: "output/run-offline.txt")
    }

    @Test func serveAnswersTheHowTosRequestsAndBadLines() async throws {
        let requests = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/serve/request.jsonl"), encoding: .utf8)
        let stdin = requests + """
            {"id": "other", "app": "com.example.other", "payload": {"aps": {"alert": "hi", "mutable-content": 1}}}

            {"id": 3, "payload": {"aps": {"alert": "no app"}}}
            not json

            """
        let text = try await output(["serve", "--scripts", "docs/examples/serve", "--offline", "--concurrency", "1", "--ordered"], stdin: stdin)
        try Golden.check(text, against: "output/serve.txt")
    }

    @Test func checkReadsEveryExampleScript() async throws {
        let scripts = files(in: ["examples/quickstart", "examples/providers", "examples/mapp-engage-buttons", "docs/examples/two-pictures"], ending: ".lua")
        try #require(scripts.count >= 4)
        try Golden.check(try await output(["check"] + scripts), against: "output/check.txt")
    }

    @Test func lintReadsTheExamplePayloads() async throws {
        let payloads = files(in: ["examples/payloads", "examples/mobisoft/payloads", "examples/alibaba-cloud-push/payloads"], ending: ".json")
        try #require(payloads.count >= 12)
        try Golden.check(try await output(["lint"] + payloads), against: "output/lint.txt")
    }
}
