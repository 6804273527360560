import Foundation
import TestSupport
import Testing

/// `--expire-ms N` on `run`, `preview`, `bench` and `serve`, and a serve line's `expireMs`: the
/// system's deadline, distinct from `--time-ms`.
@Suite(.serialized) struct ExpireOptionTests {
    static let slowDownload = """
        function didReceive(r, c)
          c.title = "downloading"
          download("https://cdn.example.com/slow.jpg")
          c.title = "downloaded"
        end
        function bestAttempt(c, reason) c.body = reason.message end
        """

    /// A script that downloads a picture whose answer takes 5 s, and a media map for it.
    func slowInputs() throws -> (ScriptAndPayload, String) {
        let inputs = try scriptAndPayload(Self.slowDownload)
        try inputs.write("slow.jpg", "\u{FF}")
        let map = try inputs.write("media.json", #"{"https://cdn.example.com/slow.jpg": {"file": "slow.jpg", "delayMs": 5000}}"#)
        return (inputs, map)
    }

    @Test func runExpiresTheRequestAtTheSystemsDeadline() async throws {
        let (inputs, map) = try slowInputs()
        let start = ContinuousClock.now
        let out = try await CLI.run(["run", inputs.script, inputs.payload, "--media-map", map, "--offline", "--expire-ms", "100"])
        let took = ContinuousClock.now - start
        #expect(out.status == 3, "\(out)")
        let result = try parseJSON(out.stdout)
        let reason = result["reason"] as? [String: Any]
        #expect(reason?["kind"] as? String == "time")
        #expect(reason?["message"] as? String == "the system's time ran out at 100 ms, before didReceive returned")
        let content = result["content"] as? [String: Any]
        #expect(content?["title"] as? String == "downloading")
        #expect(content?["body"] as? String == "the system's time ran out at 100 ms, before didReceive returned")
        let delivered = (result["stats"] as? [String: Any])?["deliveredMs"] as? Double ?? .infinity
        #expect(delivered < 100 + 300, "\(delivered)")
        #expect(took < .seconds(4), "took \(took)")
    }

    @Test func badValuesAreUsageErrors() async throws {
        let inputs = try scriptAndPayload("function didReceive() end")
        for command in ["run", "bench"] {
            for bad in ["0", "-5", "1.5", "x", "86400001"] {
                let out = try await CLI.run([command, inputs.script, inputs.payload, "--expire-ms", bad])
                #expect(out.status == 2)
                #expect(out.errorLines == ["pushscript \(command): --expire-ms takes a whole number of milliseconds from 1 to 86400000 (a day), not '\(bad)'"])
                #expect(out.stdout == "")
            }
        }
    }

    @Test func aServeLineSaysWhenTheSystemsTimeRunsOut() async throws {
        let (inputs, map) = try slowInputs()
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", Self.slowDownload)
        let payload = #"{"aps": {"alert": {"title": "original", "body": "original"}, "mutable-content": 1}}"#
        let input = [
            #"{"id": 1, "app": "com.example.news", "payload": \#(payload), "expireMs": 100}"#,
            #"{"id": 2, "app": "com.example.news", "payload": \#(payload), "expireMs": 0}"#,
            #"{"id": 3, "app": "com.example.news", "payload": \#(payload)}"#,
        ].joined(separator: "\n") + "\n"
        let out = try await CLI.run(
            ["serve", "--scripts", scratch.path("scripts"), "--media-map", map, "--offline", "--expire-ms", "150"],
            stdin: input)
        withExtendedLifetime(inputs) {}
        #expect(out.status == 0, "\(out)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(out)")
        let byID = Dictionary(uniqueKeysWithValues: try lines.map { line -> (Int, [String: Any]) in
            let object = try parseJSON(line)
            return ((object["id"] as? Int) ?? -1, object)
        })
        #expect((byID[1]?["reason"] as? [String: Any])?["message"] as? String == "the system's time ran out at 100 ms, before didReceive returned")
        #expect(byID[2]?["error"] as? String == "expireMs must be a whole number of milliseconds from 1 to 86400000 (a day)")
        #expect((byID[3]?["reason"] as? [String: Any])?["message"] as? String == "the system's time ran out at 150 ms, before didReceive returned")
    }
}
