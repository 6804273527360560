import Foundation
import TestSupport
import Testing

/// What a request can be told besides its payload, as fixtures can say it: `--identifier` and
/// `--http-map` on `run` and `preview`, and a serve line's `identifier`.
@Suite(.serialized) struct RequestOptionsTests {
    /// Writes the request's identifier into the title and the answer of one post into the body.
    static let script = """
        function didReceive(r, c)
          c.title = r.identifier
          local status, body = http.post("https://api.example.com/receipt", "{}")
          c.body = tostring(status) .. " " .. tostring(body)
        end
        """

    @Test func runTakesTheIdentifierAndAnswersPostsFromTheMap() async throws {
        let inputs = try scriptAndPayload(Self.script)
        let map = try inputs.write("http.json", #"{"https://api.example.com/receipt": {"status": 201, "body": {"ok": true}}}"#)
        let out = try await CLI.run([
            "run", inputs.script, inputs.payload, "--identifier", "8E1D4C1A-7B3F-4A59-9C2E-1F0A6D5B4C3E",
            "--http-map", map, "--allow-post", "api.example.com",
        ])
        #expect(out.status == 0, "\(out)")
        let content = try #require(try parseJSON(out.stdout)["content"] as? [String: Any])
        #expect(content["title"] as? String == "8E1D4C1A-7B3F-4A59-9C2E-1F0A6D5B4C3E")
        #expect(content["body"] as? String == #"201 {"ok":true}"#)
    }

    @Test func withoutThemTheIdentifierIsANewUUIDAndPostsGoUnanswered() async throws {
        let inputs = try scriptAndPayload(Self.script)
        let out = try await CLI.run(["run", inputs.script, inputs.payload, "--offline", "--allow-post", "api.example.com"])
        #expect(out.status == 0, "\(out)")
        let content = try #require(try parseJSON(out.stdout)["content"] as? [String: Any])
        #expect(UUID(uuidString: content["title"] as? String ?? "") != nil)
        #expect((content["body"] as? String)?.hasPrefix("nil network: no answer for https://api.example.com/receipt") == true)
    }

    @Test func laterMapsWinForTheSameURL() async throws {
        let inputs = try scriptAndPayload(Self.script)
        let first = try inputs.write("a.json", #"{"https://api.example.com/receipt": {"status": 500}}"#)
        let second = try inputs.write("b.json", #"{"https://api.example.com/receipt": {"status": 202, "body": "later"}}"#)
        let out = try await CLI.run(["run", inputs.script, inputs.payload, "--http-map", first, "--http-map", second, "--allow-post", "api.example.com"])
        let content = try #require(try parseJSON(out.stdout)["content"] as? [String: Any])
        #expect(content["body"] as? String == "202 later")
    }

    @Test func badValuesAreUsageErrors() async throws {
        let inputs = try scriptAndPayload(Self.script)
        let empty = try await CLI.run(["run", inputs.script, inputs.payload, "--identifier="])
        #expect(empty.status == 2)
        #expect(empty.stderr == "pushscript run: --identifier takes the request's apns-id, not an empty string\n")
        let missing = try await CLI.run(["run", inputs.script, inputs.payload, "--http-map", inputs.path("none.json")])
        #expect(missing.status == 2)
        #expect(missing.stderr == "pushscript run: --http-map \(inputs.path("none.json")): cannot read the file; check the path\n")
        let bad = try inputs.write("bad.json", #"{"https://api.example.com/receipt": {"status": 99}}"#)
        let refused = try await CLI.run(["preview", inputs.script, inputs.payload, "--out", inputs.path("p.html"), "--http-map", bad])
        #expect(refused.status == 2)
        #expect(refused.stderr.hasPrefix("pushscript preview: --http-map \(bad): entry for https://api.example.com/receipt: status must be an HTTP status 100...599"))
    }

    @Test func previewTakesThemToo() async throws {
        let inputs = try scriptAndPayload(Self.script)
        let map = try inputs.write("http.json", #"{"https://api.example.com/receipt": {"status": 204}}"#)
        let out = try await CLI.run([
            "preview", inputs.script, inputs.payload, "--out", inputs.path("page.html"), "--identifier", "apns-42",
            "--http-map", map, "--allow-post", "api.example.com",
        ])
        #expect(out.status == 0, "\(out)")
        let html = try String(contentsOf: inputs.url.appendingPathComponent("page.html"), encoding: .utf8)
        #expect(html.contains(">apns-42<"))
        #expect(html.contains(">204 <"))
    }

    @Test func aServeLinesIdentifierIsTheRequests() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", "function didReceive(r, c) c.title = r.identifier end")
        let line = #"{"id": 1, "app": "com.example.news", "identifier": "apns-7", "payload": \#(plainPayload)}"#
        let bad = #"{"id": 2, "app": "com.example.news", "identifier": 7, "payload": \#(plainPayload)}"#
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts")], stdin: line + "\n" + bad + "\n")
        #expect(out.status == 0, "\(out)")
        let answers = out.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == 2)
        let content = try #require(try parseJSON(answers[0])["content"] as? [String: Any])
        #expect(content["title"] as? String == "apns-7")
        #expect(answers[1] == #"{"id":2,"error":"identifier must be a non-empty string: the request's apns-id"}"#)
    }
}
