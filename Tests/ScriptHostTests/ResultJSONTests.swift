import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// The result line is written member by member; it must be what the result's JSON value
/// gives written in the result's key order, for every part a result can have.
@Suite struct ResultJSONTests {
    /// The line as the result's value written whole, with `id` first.
    static func expected(_ result: DeliveryResult, id: JSONValue?) throws -> [UInt8] {
        var object = try #require(result.jsonValue.objectValue)
        if let id { object["id"] = id }
        return try JSONValue.object(object).jsonBytes(keyOrder: DeliveryResult.keyOrder)
    }

    @Test func aScriptsResultIsWrittenAsItsValueIs() async throws {
        let result = try await deliver("""
            function didReceive(request, content)
              content.title = "Quote \\" and \\\\ and \\n"
              content.sound = {name = "chime.caf", critical = true, volume = 0.5}
              content.badge = 4
              content.relevanceScore = 0.25
              content.userInfo.extra = {list = {1, 2.5, "three", true}, nested = {b = 1, a = 2}}
              categories.register{identifier = "reply", actions = {{identifier = "ok", title = "OK"}}}
              log.info("one")
              log.warn("two")
              content:suppress()
            end
            """, payload: try originalPayload(extra: #", "z": 1, "a": {"y": null, "x": [1, {"k": "v"}]}"#))
        #expect(result.outcome == .completed)
        for id: JSONValue? in [nil, .integer(7), .string("seven"), .object(["b": .null, "a": .array([])])] {
            #expect(result.jsonLineBytes(id: id, newline: false) == (try Self.expected(result, id: id)))
        }
        #expect(result.jsonLineBytes(id: nil).last == UInt8(ascii: "\n"))
    }

    @Test func aFallbackWithPostsIsWrittenAsItsValueIs() throws {
        var content = NotificationContent()
        content.title = "t"
        let result = DeliveryResult(
            outcome: .fallback, reason: .init(kind: .error, message: "rules.lua:1: boom"), content: content,
            logs: [LogEntry(level: .error, message: "m", source: "rules.lua:1")],
            stats: .init(cpuMs: 1.23456, wallMs: 2, memoryPeakBytes: 1024),
            posts: [PostRecord(url: "https://example.com/p", body: #"{"b": 1, "a": [2]}"#, contentType: "application/json", headers: ["X-B": "1", "X-A": "2"])],
            script: ScriptIdentity(version: 3, sha256: "ab"))
        #expect(result.jsonLineBytes(id: .integer(1), newline: false) == (try Self.expected(result, id: .integer(1))))
    }

    @Test func postsAfterDeliveryAndTheDeliveryTimeAreWrittenAsTheirValueIs() throws {
        var after = PostRecord(url: "https://example.com/r", body: "x", contentType: "text/plain")
        after.after = true
        let result = DeliveryResult(
            outcome: .completed, reason: nil, content: NotificationContent(),
            stats: .init(cpuMs: 1, wallMs: 2050.5, deliveredMs: 12.25, memoryPeakBytes: 10),
            posts: [PostRecord(url: "https://example.com/p", body: "y", contentType: "text/plain"), after])
        #expect(result.jsonLineBytes(id: nil, newline: false) == (try Self.expected(result, id: nil)))
        let line = String(decoding: result.jsonLineBytes(id: nil, newline: false), as: UTF8.self)
        #expect(line.contains(#""stats":{"cpuMs":1.0,"wallMs":2050.5,"deliveredMs":12.25,"memoryPeakBytes":10}"#), "\(line)")
        let posts = result.jsonValue.objectValue?["posts"]?.arrayValue
        #expect(posts?[0].objectValue?["after"] == nil)
        #expect(posts?[1].objectValue?["after"] == .bool(true))
    }

    @Test func postsArePresentWhenThereAreNone() throws {
        let result = DeliveryResult(outcome: .completed, reason: nil, content: NotificationContent(), stats: .init(cpuMs: 0, wallMs: 1, memoryPeakBytes: 0))
        #expect(result.jsonValue.objectValue?["posts"] == .array([]))
        #expect(result.stats.deliveredMs == 1)
        #expect(String(decoding: result.jsonLineBytes(id: nil, newline: false), as: UTF8.self).hasSuffix(#""posts":[]}"#))
    }

    @Test func theScriptThatAnsweredIsNamedByItsSourcesSHA256() async throws {
        let script = Script(name: "abc.lua", source: "function didReceive(r, c) end")
        // `printf 'function didReceive(r, c) end' | sha256sum`
        #expect(script.sha256 == "de63a9c9f17e8c2f248f74f6364dfffdddf883593cb7feb7bc7e8c30c1176477")
        #expect(Script(name: "x", source: "abc").sha256 == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let result = try await deliver("function didReceive(r, c) end")
        #expect(result.script == ScriptIdentity(version: nil, sha256: script.sha256))
        #expect(result.jsonValue.objectValue?["script"] == .object(["version": .null, "sha256": .string(script.sha256)]))
        let none = await ScriptHost().deliver(NotificationRequest(payload: try Payload(jsonData: Data(#"{"aps": {}}"#.utf8))), script: .missing)
        #expect(none.script == nil)
        #expect(none.jsonValue.objectValue?["script"] == .null)
    }

    @Test func aNumberJSONCannotHoldGivesTheErrorLine() {
        var content = NotificationContent()
        content.relevanceScore = .nan
        let result = DeliveryResult(outcome: .completed, reason: nil, content: content, stats: .init(cpuMs: 0, wallMs: 0, memoryPeakBytes: 0))
        #expect(String(decoding: result.jsonLineBytes(id: nil, newline: false), as: UTF8.self) == #"{"error":"result could not be written"}"#)
    }

    @Test func theStreamingWriterSaysWhereANonFiniteNumberIs() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("content")
        #expect(throws: JSONError("cannot write inf as JSON at content.list[1].x; JSON numbers must be finite")) {
            try writer.write(.object(["list": .array([.integer(1), .object(["x": .number(.infinity)])])]))
        }
    }
}
