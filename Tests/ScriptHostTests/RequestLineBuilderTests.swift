import Testing
import NotificationModel
@testable import ScriptHost

/// A request line's `payload`, written into the bridge's format in the same read as its JSON
/// (`serve`), gives the script the `userInfo` the dictionary would have given it.
@Suite struct RequestLineBuilderTests {
    /// Reads `line` and makes its request, with the encoding when the line gave one.
    private func request(_ line: String) throws -> (NotificationRequest, encoded: Bool) {
        let bytes = Array(line.utf8)
        let read = try bytes.withUnsafeBufferPointer { try RequestLineBuilder.read($0, maximumDepth: JSONValue.maximumDepth) }
        let object = try #require(read.value.objectValue)
        var request = NotificationRequest(payload: try Payload(value: try #require(object["payload"]), sentSize: read.builder.sentSize ?? 0), app: "com.example.app")
        read.builder.givePayloadEncoding(to: &request)
        return (request, request.userInfoEncoding != nil)
    }

    /// What a script sees of `userInfo`: every value with its Lua type, keys sorted.
    private let describe = """
        local function show(v)
          if type(v) == "table" then
            local parts = {}
            for k, value in pairs(v) do parts[#parts + 1] = tostring(k) .. "=" .. show(value) end
            table.sort(parts)
            return "{" .. table.concat(parts, ",") .. "}#" .. #v
          elseif type(v) == "number" then
            return math.type(v) .. ":" .. tostring(v)
          else
            return type(v) .. ":" .. tostring(v)
          end
        end
        function didReceive(r, c) c.body = show(c.userInfo) end
        """

    private func seen(_ request: NotificationRequest) async -> DeliveryResult {
        await ScriptHost().deliver(request, script: .script(Script(name: "rules.lua", source: describe)))
    }

    @Test func theScriptSeesWhatTheDictionaryWouldHaveGivenIt() async throws {
        let line = #"{"id": 1, "app": "com.example.app", "payload": {"aps": {"alert": {"title": "t\u00e9", "body": "a\"b\n"}, "mutable-content": 1}, "#
            + #""n": 2, "f": 2.0, "big": 1e300, "neg": -0, "t": true, "nul": null, "list": [1, [], {}, "x"], "empty": {}, "none": [], "#
            + #""deep": {"a": {"b": [null, false]}}}}"#
        let (encoded, hasEncoding) = try request(line)
        #expect(hasEncoding)
        var plain = encoded
        plain.userInfoEncoding = nil
        let (fromLine, fromDictionary) = (await seen(encoded), await seen(plain))
        #expect(fromLine.outcome == .completed, "\(String(describing: fromLine.reason))")
        #expect(fromLine.content.body == fromDictionary.content.body)
        #expect(fromLine.content.body.contains("f=float:2.0") && fromLine.content.body.contains("n=integer:2"))
        #expect(fromLine.content.userInfo == fromDictionary.content.userInfo)
        #expect(fromLine.content.userInfo == encoded.payload.userInfo)
    }

    /// An object whose dictionary merged members — a key written twice, or two keys Swift's
    /// strings hold equal though their bytes differ, which Lua keeps apart — gives no encoding,
    /// and the script sees what the dictionary gives.
    @Test func anObjectWithMergedKeysIsWrittenFromTheDictionary() async throws {
        for members in [#""dup": 1, "dup": "last""#, #""café": 1, "café": 2"#, #""deep": {"k": 1, "k": 2}"#] {
            let (encoded, hasEncoding) = try request(#"{"payload": {"aps": {"mutable-content": 1}, "#+members+"}}")
            #expect(!hasEncoding, "\(members)")
            var plain = encoded
            plain.userInfoEncoding = nil
            #expect(await seen(encoded).content.body == (await seen(plain)).content.body)
        }
    }

    /// Of a `payload` written twice the last counts, as in the dictionary.
    @Test func aRepeatedPayloadIsEncodedAsTheLastOne() async throws {
        let (request, hasEncoding) = try request(
            #"{"payload": {"aps": {"mutable-content": 1}, "which": "first"}, "id": 2, "payload": {"aps": {"mutable-content": 1}, "which": "last"}}"#)
        #expect(hasEncoding)
        let result = await seen(request)
        #expect(result.content.body.contains("which=string:last"))
        #expect(!result.content.body.contains("first"))
    }

    /// A script's change to the `userInfo` it was given from the line is delivered, and a
    /// later phase (`bestAttempt`) sees the changed one, not the line's.
    @Test func aChangeToTheEncodedUserInfoIsDeliveredAndKept() async throws {
        var (request, hasEncoding) = try request(#"{"payload": {"aps": {"mutable-content": 1}, "n": 1}}"#)
        #expect(hasEncoding)
        let script = """
            function didReceive(r, c) c.userInfo.n = c.userInfo.n + 1 c.userInfo.added = "yes" while true do end end
            function bestAttempt(c, reason) c.body = tostring(c.userInfo.n) .. c.userInfo.added end
            """
        request.limits = ScriptLimits(cpuTime: .milliseconds(50), memoryBytes: 8 << 20, time: .seconds(2))
        var plain = request
        plain.userInfoEncoding = nil
        let host = ScriptHost()
        let result = await host.deliver(request, script: .script(Script(name: "rules.lua", source: script)))
        let expected = await host.deliver(plain, script: .script(Script(name: "rules.lua", source: script)))
        #expect(result.content.userInfo["n"] == .integer(2))
        #expect(result.content.userInfo["added"] == .string("yes"))
        #expect(result.content.body == "2yes", "\(result.logs)")
        #expect(result.content.body == expected.content.body)
        #expect(result.content.userInfo == expected.content.userInfo)
    }

    /// Only an object is a `userInfo`: a line whose payload is anything else gives no encoding.
    @Test func aPayloadThatIsNoObjectGivesNoEncoding() throws {
        for line in [#"{"payload": [1, 2]}"#, #"{"payload": "x"}"#, #"{"id": {"payload": {"a": 1}}}"#, #"{"payload": {"a": 1}, "payload": 3}"#] {
            let bytes = Array(line.utf8)
            let read = try bytes.withUnsafeBufferPointer { try RequestLineBuilder.read($0, maximumDepth: JSONValue.maximumDepth) }
            var request = NotificationRequest(payload: try originalPayload())
            read.builder.givePayloadEncoding(to: &request)
            #expect(request.userInfoEncoding == nil, "\(line)")
        }
    }

    /// The encoding is used only for the dictionary it was made from: a request whose payload
    /// was replaced afterwards is written from its own.
    @Test func anEncodingIsNotUsedForAnotherPayload() async throws {
        var (request, hasEncoding) = try request(#"{"payload": {"aps": {"mutable-content": 1}, "which": "line"}}"#)
        #expect(hasEncoding)
        request.payload = try payload(#"{"aps": {"mutable-content": 1}, "which": "replaced"}"#)
        let result = await seen(request)
        #expect(result.content.body.contains("which=string:replaced"), "\(result.content.body)")
    }
}
