import Foundation
import ScriptHost
import TestSupport
import Testing

/// `--key`, a fixture's `keys` and a script's `base64.decode` read one base64 dialect: the
/// standard and URL-safe alphabets, padding optional.
@Suite(.serialized) struct KeyDialectTests {
    @Test func keyTakesWhatScriptsDecode() async throws {
        let scratch = try TemporaryFolder()
        let payload = try scratch.write("p.json", plainPayload)
        let script = try scratch.write("rules.lua", """
            function didReceive(r, c)
              c.title = hex.encode(keys.get("k") or "")
              c.body = hex.encode(base64.decode("-_8") or "")
            end
            """)
        // URL-safe and unpadded: refused before the dialects were one.
        let out = try await CLI.run(["run", script, payload, "--key", "k=-_8"])
        #expect(out.status == 0, "\(out)")
        let content = try parseJSON(out.stdout)["content"] as? [String: Any]
        #expect(content?["title"] as? String == "fbff")
        #expect(content?["body"] as? String == "fbff")

        let bad = try await CLI.run(["run", script, payload, "--key", "k=a b"])
        #expect(bad.status == 2)
        #expect(bad.errorLines == [
            "pushscript run: --key k: the value is not base64 (' ' at position 2 is not a base64 character); give NAME=BASE64",
        ])
    }

    @Test func fixtureKeysTakeTheSameDialect() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("rules.lua", """
            function didReceive(r, c) c.title = hex.encode(keys.get("k") or "") end
            """)
        try scratch.write("01.fixture.json", """
            {"script": "rules.lua", "payload": {"aps": {"alert": {"title": "t", "body": "b"}, "mutable-content": 1}},
             "keys": {"k": "-_8"}, "expect": {"outcome": "completed", "content": {"title": "fbff"}}}
            """)
        let out = try await CLI.run(["test", scratch.url.path])
        #expect(out.status == 0, "\(out)")
    }

    @Test func oneDecoderForEveryone() throws {
        #expect(try Base64.decode("+/8=").get() == [0xFB, 0xFF])
        #expect(try Base64.decode("-_8").get() == [0xFB, 0xFF])
        #expect(throws: Base64.DecodeError.self) { try Base64.decode("+/8==").get() }
    }
}
