import Foundation
import TestSupport
import Testing

/// The examples of `docs/how-to.md`, run as the page tells a reader to run them.
@Suite(.serialized) struct DocsExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyHowToFixturePasses() async throws {
        let examples = Self.root.appendingPathComponent("docs/examples")
        let count = FileManager.default.enumerator(atPath: examples.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".fixture.json") }.count ?? 0
        #expect(count >= 15, "docs/examples has its fixtures")
        let out = try await CLI.run(["test", "docs/examples"], in: Self.root, timeout: .seconds(60))
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.hasSuffix("\(count) passed, 0 failed\n"), "\(out)")
    }

    @Test func theHowToShowsEachScriptAsItsFileHoldsIt() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/how-to.md"), encoding: .utf8)
        let examples = Self.root.appendingPathComponent("docs/examples")
        let files = (FileManager.default.enumerator(atPath: examples.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".lua") || $0.hasSuffix(".jsonl") }.sorted()
        #expect(files.count >= 7)
        for file in files {
            let text = try String(contentsOf: examples.appendingPathComponent(file), encoding: .utf8)
            #expect(page.contains(text.trimmingCharacters(in: .newlines)), "docs/how-to.md does not show docs/examples/\(file) as it is")
            #expect(page.contains("`docs/examples/\(file)`"), "docs/how-to.md does not name docs/examples/\(file)")
        }
    }

    @Test func theServeHowToAnswersItsRequest() async throws {
        let line = try String(contentsOf: Self.root.appendingPathComponent("docs/examples/serve/request.jsonl"), encoding: .utf8)
        let out = try await CLI.run(["serve", "--scripts", "docs/examples/serve"], stdin: line, in: Self.root, timeout: .seconds(60))
        #expect(out.status == 0, "\(out)")
        #expect(out.lines.count == 1, "\(out)")
        let answer = try JSONSerialization.jsonObject(with: Data(out.lines.first?.utf8 ?? "".utf8)) as? [String: Any]
        #expect(answer?["id"] as? Int == 1)
        #expect(answer?["outcome"] as? String == "completed")
        let content = answer?["content"] as? [String: Any]
        #expect(content?["title"] as? String == "Sport: Lions win")
        #expect(content?["threadIdentifier"] as? String == "Sport")
        #expect(out.lines.first?.hasPrefix(#"{"id":1,"outcome":"completed","#) == true, "\(out)")
    }
}
