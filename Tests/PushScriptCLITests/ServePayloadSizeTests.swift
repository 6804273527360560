import Foundation
import TestSupport
import Testing

/// `serve` measures a request's payload on the line's text, as sent.
@Suite(.serialized) struct ServePayloadSizeTests {
    @Test func aKeyRepeatedInThePayloadStillCounts() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", #"function didReceive(request, content) content.title = "served" end"#)
        let pad = String(repeating: "x", count: 1000)
        let repeated = (0..<5).map { _ in #""pad": "\#(pad)""# }.joined(separator: ", ")
        let input = [
            #"{"id": 1, "app": "com.example.news", "payload": {"aps": {"alert": "hi", "mutable-content": 1}, \#(repeated)}}"#,
            #"{"id": 2, "app": "com.example.news", "payload": {"aps": {"alert": "hi", "mutable-content": 1}, "pad": "\#(pad)"}}"#,
        ].joined(separator: "\n") + "\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts")], stdin: input)
        #expect(out.status == 0, "\(out)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(out)")
        #expect(lines[0].hasPrefix(#"{"id":1,"error":"payload too large: "#), "\(lines[0])")
        #expect(lines[1].contains(#""outcome":"completed""#), "\(lines[1])")
    }
}
