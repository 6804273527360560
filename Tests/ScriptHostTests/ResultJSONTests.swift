import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// The result is written once, into any sink: its line (the text writer) must read back as
/// its JSON value (the value builder), with `id` first, for every part a result can have.
@Suite struct ResultJSONTests {
    /// The line, read back; and whether `id` comes first in it.
    static func readBack(_ line: [UInt8], id: JSONValue?) throws -> JSONValue {
        if let id {
            let prefix = try JSONValue.object(["id": id]).jsonBytes().dropLast()
            #expect(line.starts(with: prefix + Array(",".utf8)))
        }
        return try JSONValue(jsonData: Data(line))
    }

    /// The result's value, with `id` when given.
    static func expected(_ result: DeliveryResult, id: JSONValue?) throws -> JSONValue {
        var object = try #require(result.jsonValue.objectValue)
        if let id { object["id"] = id }
        return .object(object)
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
            #expect(try Self.readBack(result.jsonLineBytes(id: id, newline: false), id: id) == (try Self.expected(result, id: id)))
        }
        #expect(result.jsonLineBytes(id: nil).last == UInt8(ascii: "\n"))
    }

    @Test func aFallbackWithPostsIsWrittenAsItsValueIs() throws {
        var content = NotificationContent()
        content.title = "t"
        var result = DeliveryResult(
            outcome: .fallback, reason: .init(kind: .error, message: "rules.lua:1: boom"), content: content,
            logs: [LogEntry(level: .error, message: "m", source: "rules.lua:1")],
            stats: .init(cpuMs: 1.23456, wallMs: 2, memoryPeakBytes: 1024),
            script: ScriptIdentity(version: 3, sha256: "ab"))
        result.posts = [PostRecord(url: "https://example.com/p", body: #"{"b": 1, "a": [2]}"#, contentType: "application/json", headers: ["X-B": "1", "X-A": "2"])]
        #expect(try Self.readBack(result.jsonLineBytes(id: .integer(1), newline: false), id: .integer(1)) == (try Self.expected(result, id: .integer(1))))
    }

    @Test func postsAfterDeliveryAndTheDeliveryTimeAreWrittenAsTheirValueIs() throws {
        var after = PostRecord(url: "https://example.com/r", body: "x", contentType: "text/plain")
        after.after = true
        var result = DeliveryResult(
            outcome: .completed, reason: nil, content: NotificationContent(),
            stats: .init(cpuMs: 1, wallMs: 2050.5, deliveredMs: 12.25, memoryPeakBytes: 10))
        result.posts = [PostRecord(url: "https://example.com/p", body: "y", contentType: "text/plain"), after]
        #expect(try Self.readBack(result.jsonLineBytes(id: nil, newline: false), id: nil) == (try Self.expected(result, id: nil)))
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

    @Test func theTextWriterSaysWhereANonFiniteNumberIs() {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("content")
        writer.write(.object(["list": .array([.integer(1), .object(["x": .number(.infinity)])])]))
        #expect(writer.failure == JSONError("cannot write inf as JSON at content.list[1].x; JSON numbers must be finite"))
    }
}
