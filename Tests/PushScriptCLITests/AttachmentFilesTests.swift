import Foundation
import TestSupport
import Testing

/// Who owns delivered attachment files: `--attachments DIR` keeps them there; without it no
/// command leaves files behind, and `serve` keeps only those of recent results.
@Suite(.serialized) struct AttachmentFilesTests {
    static let script = """
        function didReceive(r, c)
          local file, err = download("https://cdn.example.com/a.jpg")
          if file then c:attach(file) else c.body = err end
        end
        """
    static let media = "https://cdn.example.com/a.jpg"

    /// A scratch folder with the script, the payload, the picture and an empty temporary folder.
    private func setUp() throws -> (TemporaryFolder, tmp: String) {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", Self.script)
        try scratch.write("p.json", plainPayload)
        try scratch.write("a.jpg", jpegBytes)
        try FileManager.default.createDirectory(atPath: scratch.path("tmp"), withIntermediateDirectories: true)
        return (scratch, scratch.path("tmp"))
    }

    private func files(under path: String) -> [String] {
        guard let e = FileManager.default.enumerator(atPath: path) else { return [] }
        return e.compactMap { $0 as? String }.filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    private func fileURL(_ attachment: [String: Any]?) -> URL? {
        guard let text = attachment?["url"] as? String else { return nil }
        return URL(string: text)
    }

    /// The `content.attachments` of a result object's JSON text.
    private func attachments(_ json: String) throws -> [[String: Any]]? {
        (try parseJSON(json)["content"] as? [String: Any])?["attachments"] as? [[String: Any]]
    }

    /// Runs `command` (`run` or `preview`) on the script and payload, the picture answering
    /// its URL, with `extra` arguments, and the temporary folder `tmp`.
    private func deliver(_ command: String, _ scratch: TemporaryFolder, tmp: String, _ extra: [String] = []) async throws -> CLIOutput {
        try await CLI.run(
            [command, scratch.path("scripts/com.example.news.lua"), scratch.path("p.json"), "--media", "\(Self.media)=\(scratch.path("a.jpg"))"] + extra,
            environment: ["TMPDIR": tmp])
    }

    private func entries(_ path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    @Test func runRemovesItsFilesAndSaysSo() async throws {
        let (scratch, tmp) = try setUp()
        let out = try await deliver("run", scratch, tmp: tmp)
        #expect(out.status == 0, "\(out)")
        let attached = try attachments(out.stdout)
        #expect(attached?.count == 1)
        #expect(entries(tmp) == [], "run left \(entries(tmp)) behind")
        #expect(out.errorLines == ["run: the attachment file is removed at exit; give --attachments DIR to keep it"])
    }

    @Test func runKeepsItsFilesInTheAttachmentsFolder() async throws {
        let (scratch, tmp) = try setUp()
        let out = try await deliver("run", scratch, tmp: tmp, ["--attachments", scratch.path("kept")])
        #expect(out.status == 0, "\(out)")
        let attached = try attachments(out.stdout)
        let url = try #require(fileURL(attached?.first))
        #expect(url.path.hasPrefix(scratch.path("kept") + "/"))
        #expect(FileManager.default.contents(atPath: url.path) == jpegBytes)
        #expect(entries(tmp) == [])
        #expect(out.errorLines == ["run: attachment files kept in \(url.deletingLastPathComponent().path)"])
        let file = try scratch.write("file", "")
        let bad = try await CLI.run(["run", scratch.path("scripts/com.example.news.lua"), scratch.path("p.json"), "--attachments", file])
        #expect(bad.status == 2)
        #expect(bad.errorLines == ["pushscript run: --attachments \(file) is a file; give a folder"])
    }

    @Test func previewLeavesNoFiles() async throws {
        let (scratch, tmp) = try setUp()
        let out = try await deliver("preview", scratch, tmp: tmp, ["--out", scratch.path("page.html")])
        #expect(out.status == 0, "\(out)")
        #expect(entries(tmp) == [])
        #expect(out.errorLines == ["preview: the attachment file is removed at exit; give --attachments DIR to keep it"])
    }

    @Test func serveKeepsRecentResultsFilesOnlyAndRemovesItsFolderAtTheEnd() async throws {
        let (scratch, tmp) = try setUp()
        let serve = try ServeSession(
            ["--scripts", scratch.path("scripts"), "--media", "\(Self.media)=\(scratch.path("a.jpg"))"], environment: ["TMPDIR": tmp])
        let count = 80
        for id in 1...count { serve.send(#"{"id": \#(id), "app": "com.example.news", "payload": \#(plainPayload)}"#) }
        let lines = try await serve.output(count: count)
        try #require(lines.count == count)
        for line in lines {
            #expect(try attachments(line)?.count == 1)
        }
        // The last answer's files are there; no more than 64 results' files are kept.
        let last = (try attachments(lines[count - 1]))?.first
        let lastFile = try #require(fileURL(last))
        #expect(FileManager.default.fileExists(atPath: lastFile.path))
        let first = (try attachments(lines[0]))?.first
        let firstFile = try #require(fileURL(first))
        #expect(!FileManager.default.fileExists(atPath: firstFile.path))
        #expect(files(under: tmp).count == 64)

        let (status, _) = try await serve.finish()
        #expect(status == 0)
        #expect(entries(tmp) == [], "serve left \(entries(tmp)) behind")
    }

    @Test func serveRemovesItsFolderOnSIGTERM() async throws {
        let (scratch, tmp) = try setUp()
        let serve = try ServeSession(
            ["--scripts", scratch.path("scripts"), "--media", "\(Self.media)=\(scratch.path("a.jpg"))"], environment: ["TMPDIR": tmp])
        serve.send(#"{"id": 1, "app": "com.example.news", "payload": \#(plainPayload)}"#)
        _ = try await serve.output(count: 1)
        #expect(files(under: tmp).count == 1)
        let status = try await serve.terminate()
        #expect(status == 0, "a stop is a drain")
        #expect(entries(tmp) == [], "serve left \(entries(tmp)) behind")
    }

    @Test func serveLeavesTheAttachmentsFolderToTheCaller() async throws {
        let (scratch, tmp) = try setUp()
        let input = (1...70).map { #"{"id": \#($0), "app": "com.example.news", "payload": \#(plainPayload)}"# }.joined(separator: "\n") + "\n"
        let out = try await CLI.run(
            ["serve", "--scripts", scratch.path("scripts"), "--media", "\(Self.media)=\(scratch.path("a.jpg"))", "--attachments", scratch.path("kept")],
            stdin: input, environment: ["TMPDIR": tmp])
        #expect(out.status == 0, "\(out)")
        #expect(files(under: scratch.path("kept")).count == 70)
        #expect(entries(tmp) == [])
    }
}
