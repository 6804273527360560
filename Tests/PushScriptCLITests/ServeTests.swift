import Foundation
import TestSupport
import Testing

/// `pushscript serve`: JSON lines in, results out, scripts reloaded from the folder.
@Suite(.serialized) struct ServeTests {
    static let payload = #"{"aps": {"alert": {"title": "original", "body": "original"}, "mutable-content": 1}}"#

    static func request(_ id: Int, app: String = "com.example.news", payload: String = payload) -> String {
        #"{"id": \#(id), "app": "\#(app)", "payload": \#(payload)}"#
    }

    /// Standard error's lines without the start-up line.
    static func withoutStartLine(_ lines: [String]) -> [String] {
        lines.filter { !$0.hasPrefix("serve: pushscript ") }
    }

    static func title(_ text: String) -> String {
        #"function didReceive(request, content) content.title = "\#(text)" end"#
    }

    @Test func changedScriptsAreInServiceForTheNextRequest() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", Self.title("one"))
        let serve = try ServeSession(["--scripts", scratch.path("scripts")])

        serve.send(Self.request(1))
        var lines = try await serve.output(count: 1)
        #expect(try answer(lines[0]).title == "one")

        try scratch.write("scripts/com.example.news.lua", Self.title("two"))
        serve.send(Self.request(2))
        lines = try await serve.output(count: 2)
        #expect(try answer(lines[1]).title == "two")

        // Broken: the last good version stays in service, and standard error says so.
        try scratch.write("scripts/com.example.news.lua", "function didReceive(request, content)\n  content.title = \n")
        serve.send(Self.request(3))
        lines = try await serve.output(count: 3)
        #expect(try answer(lines[2]).title == "two")
        #expect(try answer(lines[2]).outcome == "completed")
        let errors = try await serve.errors(containing: "keeping the last good version")
        #expect(Self.withoutStartLine(errors) == ["serve: com.example.news.lua:3: unexpected symbol near <eof> — keeping the last good version"])

        // Still broken: not reported again.
        serve.send(Self.request(4))
        lines = try await serve.output(count: 4)
        #expect(try answer(lines[3]).title == "two")

        try scratch.write("scripts/com.example.news.lua", Self.title("three"))
        serve.send(Self.request(5))
        lines = try await serve.output(count: 5)
        #expect(try answer(lines[4]).title == "three")
        #expect(Self.withoutStartLine(try await serve.errors(containing: "compiles again")).count == 2)

        let (status, all) = try await serve.finish()
        #expect(status == 0)
        #expect(all.count == 5)
        #expect(try all.map { try answer($0).id } == [1, 2, 3, 4, 5])
    }

    @Test func aScriptThatNeverCompiledFallsBackWithReasonLoad() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", "function didReceive(")
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts")], stdin: Self.request(1) + "\n")
        #expect(out.status == 0)
        let result = try parseJSON(out.stdout)
        #expect(result["outcome"] as? String == "fallback")
        #expect((result["reason"] as? [String: Any])?["kind"] as? String == "load")
        // The result names the script that did not compile, as `run` does.
        let script = result["script"] as? [String: Any]
        #expect(script?["sha256"] as? String == "e28099998574ec67160a9b74c3dc023c4102271b6171bf61a8a2c57749f55af3" /* sha256sum of the file */, "\(result)")
        #expect(Self.withoutStartLine(out.errorLines).count == 1)
        #expect(Self.withoutStartLine(out.errorLines).first?.hasPrefix("serve: com.example.news.lua:1: ") == true)
    }

    @Test func aMetricsFileThatCannotBeWrittenIsAUsageErrorAtStart() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", Self.title("served"))
        let out = try await CLI.run(
            ["serve", "--scripts", scratch.path("scripts"), "--metrics", scratch.path("no-such-folder/serve.prom")], stdin: Self.request(1) + "\n")
        #expect(out.status == 2)
        #expect(out.stdout.isEmpty)
        #expect(out.errorLines == ["pushscript serve: --metrics \(scratch.path("no-such-folder/serve.prom")): its folder \(scratch.path("no-such-folder")) does not exist or is not writable; give a file in a writable folder"])
    }

    @Test func badLinesGetAnErrorAndServingGoesOn() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", Self.title("served"))
        let big = #"{"aps": {"alert": "hi"}, "blob": "\#(String(repeating: "x", count: 4100))"}"#
        let input = [
            Self.request(1),
            "this is not json",
            "",
            #"["a", "list"]"#,
            #"{"id": "b", "app": "com.example.news", "payload": {"aps": {"badge": "1"}}}"#,
            Self.request(5, payload: big),
            #"{"id": 6, "app": "com.example.news"}"#,
            #"{"id": 7, "payload": {"aps": {}}}"#,
            #"{"id": 8, "app": "com.example.news", "payload": {"aps": {}}, "locale": "de"}"#,
            Self.request(9, app: "com.example.unknown"),
            #"{"id": 10, "app": "com.example.news", "payload": {"aps": {}}, "locales": ["de-DE", "en"]}"#,
        ].joined(separator: "\n") + "\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--ordered"], stdin: input)
        #expect(out.status == 0, "\(out)")
        #expect(Self.withoutStartLine(out.errorLines) == [])
        let lines = out.stdout.split(separator: "\n").map(String.init)
        // One answer per line that is not blank.
        try #require(lines.count == 10, "\(out)")
        #expect(try answer(lines[0]).title == "served")
        #expect(lines[1].hasPrefix(#"{"id":null,"error":"the line is not valid JSON: "#))
        #expect(lines[2] == #"{"id":null,"error":"a request must be a JSON object with id, app and payload, not an array"}"#)
        #expect(lines[3] == #"{"id":"b","error":"aps.badge must be an integer >= 0"}"#)
        #expect(lines[4].hasPrefix(#"{"id":5,"error":"payload too large: "#))
        #expect(lines[5] == #"{"id":6,"error":"payload is missing; give the APNs payload as a JSON object"}"#)
        #expect(lines[6] == #"{"id":7,"error":"app is missing; give the app's bundle identifier (or start serve with --app)"}"#)
        #expect(lines[7] == #"{"id":8,"error":"unknown key 'locale'; a request has id, app, payload, locales, expireMs and identifier"}"#)
        let noScript = try parseJSON(lines[8])
        #expect(noScript["id"] as? Int == 9)
        #expect((noScript["reason"] as? [String: Any])?["kind"] as? String == "no-script")
        #expect((noScript["content"] as? [String: Any])?["title"] as? String == "original")
        #expect(try answer(lines[9]).id == 10)
        // Every answer is the result of section 2 with "id" first.
        #expect(lines[0].hasPrefix(#"{"id":1,"outcome":"completed","content":{"title":"served","#))
    }

    @Test func aLineNestedTooDeepIsAnsweredWithItsID() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", Self.title("served"))
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let input = [
            #"{"id": 7, "app": "com.example.news", "payload": \#(deep)}"#,
            #"{"payload": {"x": \#(deep)}, "id": "after"}"#,
            #"{"id": \#(deep)}"#,
            Self.request(9, app: "com.example.unknown"),
        ].joined(separator: "\n") + "\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--ordered"], stdin: input)
        #expect(out.status == 0, "\(out)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(out)")
        let message = "the line nests arrays and objects deeper than 512 levels; give a flatter request"
        #expect(lines[0] == #"{"id":7,"error":"\#(message)"}"#)
        #expect(lines[1] == #"{"id":"after","error":"\#(message)"}"#)
        #expect(lines[2] == #"{"id":null,"error":"\#(message)"}"#)
        #expect(try parseJSON(lines[3])["id"] as? Int == 9)
    }

    @Test func linesAreReadAsPayloadFilesAre() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", Self.title("served"))
        let input = [
            #"{"id": 1, "app": "com.example.news", "payload": {"aps": {"alert": "hi",}}}"#,
            #"{"id": 1.0000000019902598e+18, "app": "com.example.none", "payload": {"aps": {}}}"#,
            #"{"id": 9223372036854775807, "app": "com.example.none", "payload": {"aps": {}}}"#,
            "\u{FEFF}" + Self.request(4),
        ].joined(separator: "\n") + "\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--ordered"], stdin: input)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(out)")
        // A trailing comma is refused here as in a payload file, with the same words.
        #expect(lines[0] == #"{"id":null,"error":"the line is not valid JSON: a comma before '}' at byte 71; give one JSON object per line"}"#)
        // Long numerals keep their type: a float stays a float, the largest integer an integer.
        #expect(lines[1].hasPrefix(#"{"id":1.0000000019902598e+18,"outcome":"fallback","#), "\(lines[1])")
        #expect(lines[2].hasPrefix(#"{"id":9223372036854775807,"outcome":"fallback","#), "\(lines[2])")
        // A byte order mark belongs at the start of a file, not of a line.
        #expect(lines[3] == #"{"id":null,"error":"the line is not valid JSON: unexpected byte 0xef at byte 1; give one JSON object per line"}"#)
    }

    @Test func appOptionIsTheDefaultAppAndLocalesArePerRequest() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", #"function didReceive(r, c) c.title = r.app .. " " .. table.concat(r.locales, "|") end"#)
        let input = [
            #"{"id": 1, "payload": {"aps": {}}}"#,
            #"{"id": 2, "payload": {"aps": {}}, "locales": ["de-DE", "en"]}"#,
            #"{"id": 3, "app": "com.example.other", "payload": {"aps": {}}}"#,
        ].joined(separator: "\n") + "\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--app", "com.example.news", "--locale", "fr", "--ordered"], stdin: input)
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(out)")
        #expect(try answer(lines[0]).title == "com.example.news fr")
        #expect(try answer(lines[1]).title == "com.example.news de-DE|en")
        #expect((try parseJSON(lines[2])["reason"] as? [String: Any])?["kind"] as? String == "no-script")
    }

    @Test func oneAppsRequestsRunOneAtATimeInArrivalOrder() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", """
            function didReceive(r, c) c.badge = store.increment("unread") end
            """)
        let input = (1...40).map { Self.request($0) }.joined(separator: "\n") + "\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--concurrency", "16"], stdin: input)
        #expect(out.status == 0, "\(out)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 40, "\(out)")
        let badges = try lines.map { ((try parseJSON($0))["content"] as? [String: Any])?["badge"] as? Int }
        #expect(badges == (1...40).map { $0 })
        #expect(try lines.map { try answer($0).id } == (1...40).map { $0 })
    }

    @Test func aSlowAppDoesNotHoldUpAnother() async throws {
        let scratch = try TemporaryFolder()
        // The slow app's request runs for three seconds of wall-clock time; the other app's
        // requests, sent after it, run while it does: they see a time before it ends.
        try scratch.write("scripts/com.example.slow.lua", """
            function didReceive(r, c)
              local started = os.time()
              while os.time() < started + 3 do end
              c.title = tostring(os.time())
            end
            """)
        try scratch.write("scripts/com.example.fast.lua", "function didReceive(r, c) c.title = tostring(os.time()) end")
        let serve = try ServeSession(["--scripts", scratch.path("scripts"), "--cpu-ms", "60000"])
        serve.send(Self.request(1, app: "com.example.slow"))
        for id in 2...4 { serve.send(Self.request(id, app: "com.example.fast")) }
        let (status, lines) = try await serve.finish()
        #expect(status == 0)
        try #require(lines.count == 4, "\(lines) \(serve.errorLines)")
        // Answers are written as they are ready: the slow one last.
        #expect(try lines.map { try answer($0).id } == [2, 3, 4, 1])
        let slowEnded = try #require(Int(try answer(lines[3]).title ?? ""))
        for line in lines.dropLast() {
            let ran = try #require(Int(try answer(line).title ?? ""))
            #expect(ran < slowEnded, "the fast app waited for the slow one: \(ran) >= \(slowEnded)")
        }
    }

    /// Input that arrives in pieces (a line cut in two while serve waits for the rest, a
    /// `\r\n` line end, a last line without a line end) is read line by line, each line once.
    @Test func linesThatArriveInPiecesAreEachReadOnce() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", "function didReceive(r, c) c.title = 'seen' end")
        let serve = try ServeSession(["--scripts", scratch.path("scripts"), "--concurrency", "1"])
        let first = Self.request(1)
        let cut = first.index(first.startIndex, offsetBy: first.count / 2)
        serve.send(raw: String(first[..<cut]))
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await serve.output(count: 0).isEmpty, "answered a line cut in two")
        serve.send(raw: String(first[cut...]) + "\r\n")
        #expect(try await serve.output(count: 1).count == 1)
        serve.send(raw: Self.request(2) + "\n\n" + Self.request(3))
        let (status, lines) = try await serve.finish()
        #expect(status == 0)
        #expect(try lines.map { try answer($0).id } == [1, 2, 3])
        #expect(try lines.map { try answer($0).title } == ["seen", "seen", "seen"])
    }

    @Test func usageErrors() async throws {
        let scratch = try TemporaryFolder()
        let missing = try await CLI.run(["serve"])
        #expect(missing.status == 2)
        #expect(missing.errorLines == ["pushscript serve: --scripts DIR is missing; give the folder that holds the <bundle-id>.lua scripts"])
        let file = try scratch.write("file.lua", "")
        let notFolder = try await CLI.run(["serve", "--scripts", file])
        #expect(notFolder.status == 2)
        #expect(notFolder.errorLines == ["pushscript serve: --scripts \(file) is not a folder; give the folder that holds the <bundle-id>.lua scripts"])
        let zero = try await CLI.run(["serve", "--scripts", scratch.url.path, "--concurrency", "0"])
        #expect(zero.status == 2)
        #expect(zero.errorLines == ["pushscript serve: --concurrency takes a positive whole number, not '0'"])
        #expect(zero.stdout == "")
    }

    @Test func mediaMapAndOfflineServeRequests() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", """
            function didReceive(request, content)
              local a, aerr = download("https://cdn.example.com/a.jpg?sig=x=")
              local _, berr = download("https://elsewhere.example.com/b.jpg")
              content.title = (a and a.type or aerr) .. "|" .. berr
            end
            """)
        try scratch.write("media/a.jpg", jpegBytes)
        let map = try scratch.write("media.json", #"{"https://cdn.example.com/a.jpg?sig=x=": "media/a.jpg"}"#)
        let serve = try ServeSession(["--scripts", scratch.path("scripts"), "--media-map", map, "--offline"])
        serve.send(Self.request(1))
        let lines = try await serve.output(count: 1)
        #expect(try answer(lines[0]).title == "public.jpeg|network: no media answer for 'https://elsewhere.example.com/b.jpg' and no network to ask")
    }

    private struct Answer {
        let id: Int?
        let outcome: String?
        let title: String?
    }

    private func answer(_ line: String) throws -> Answer {
        let object = try parseJSON(line)
        return Answer(
            id: object["id"] as? Int, outcome: object["outcome"] as? String,
            title: (object["content"] as? [String: Any])?["title"] as? String)
    }

}
