import Foundation
import TestSupport
import Testing

/// `serve`'s answers as they are ready, its bounds, and what operators see of it.
@Suite(.serialized) struct ServeFlowTests {
    /// A fast app and a slow one whose every request waits 300 ms for a download.
    static func slowAndFast() throws -> (TemporaryFolder, String) {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.slow.lua", """
            function didReceive(request, content)
              local file = download("https://cdn.example.com/slow.jpg")
              content.title = file and "slow" or "failed"
            end
            """)
        try scratch.write("scripts/com.example.fast.lua", "function didReceive(r, c) c.title = 'fast' end")
        try scratch.write("media/slow.jpg", jpegBytes)
        let map = try scratch.write("media.json", #"{"https://cdn.example.com/slow.jpg": {"file": "media/slow.jpg", "delayMs": 300}}"#)
        return (scratch, map)
    }

    @Test func anotherAppsAnswerComesAsSoonAsItIsDelivered() async throws {
        let (scratch, map) = try Self.slowAndFast()
        let serve = try ServeSession(["--scripts", scratch.path("scripts"), "--media-map", map, "--offline"])
        _ = try await serve.errors(containing: "serve: pushscript")
        // Warm the fast app up, so its script is compiled.
        serve.send(ServeTests.request(0, app: "com.example.fast"))
        _ = try await serve.output(count: 1)
        for id in 1...20 { serve.send(ServeTests.request(id, app: "com.example.slow")) }
        try await Task.sleep(for: .milliseconds(50))
        let sent = ContinuousClock.now
        serve.send(ServeTests.request(100, app: "com.example.fast"))
        var fast: [String: Any]?
        while fast == nil {
            let lines = try await serve.output(count: 1)
            fast = try lines.dropFirst().map(parseJSON).first { $0["id"] as? Int == 100 }
            if fast == nil { try await Task.sleep(for: .milliseconds(2)) }
            try #require(ContinuousClock.now - sent < .seconds(5), "no answer for the fast app")
        }
        let arrived = ContinuousClock.now - sent
        let delivered = try #require((fast?["stats"] as? [String: Any])?["wallMs"] as? Double)
        let waited = arrived - .milliseconds(delivered)
        #expect(waited < .milliseconds(100), "the fast app's answer came \(waited) after its delivery")
        let slowSoFar = try await serve.output(count: 0).dropFirst().map(parseJSON).filter { $0["id"] as? Int != 100 }.count
        #expect(slowSoFar < 20, "the fast answer came after every slow one")
        let (status, lines) = try await serve.finish()
        #expect(status == 0)
        // Each app's answers keep its order.
        let slowIDs = try lines.map(parseJSON).compactMap { $0["id"] as? Int }.filter { (1...20).contains($0) }
        #expect(slowIDs == Array(1...20))
    }

    @Test func orderedWritesTheAnswersInInputOrder() async throws {
        let (scratch, map) = try Self.slowAndFast()
        var input = [ServeTests.request(1, app: "com.example.slow")]
        input += (2...6).map { ServeTests.request($0, app: "com.example.fast") }
        let ordered = try await CLI.run(
            ["serve", "--scripts", scratch.path("scripts"), "--media-map", map, "--offline", "--ordered"], stdin: input.joined(separator: "\n") + "\n")
        #expect(ordered.status == 0)
        #expect(try ordered.lines.map { try parseJSON($0)["id"] as? Int } == [1, 2, 3, 4, 5, 6])
        let asReady = try await CLI.run(
            ["serve", "--scripts", scratch.path("scripts"), "--media-map", map, "--offline"], stdin: input.joined(separator: "\n") + "\n")
        #expect(try asReady.lines.map { try parseJSON($0)["id"] as? Int }.last == 1, "the slow answer is written last")
    }

    @Test func aRequestWithEscapedQuotesAndBackslashesBeforeItsAppIsAnsweredByThatApp() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", ServeTests.title("news"))
        try scratch.write("scripts/com.example.other.lua", ServeTests.title("other"))
        // Strings before "app" that end in backslashes or hold escaped quotes and brackets.
        let tricky = #"{"id": 1, "payload": {"aps": {}, "a": "x\\", "b": "}}", "c": "q\"}\"", "d": "\\\\\"[", "e": ["\\"]}, "app": "com.example.other"}"#
        let plain = #"{"id": 2, "payload": {"aps": {}}, "app": "com.example.news"}"#
        let result = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--ordered"], stdin: tricky + "\n" + plain + "\n")
        let answers = try result.lines.map(parseJSON)
        #expect(answers.count == 2)
        #expect((answers.first?["content"] as? [String: Any])?["title"] as? String == "other", "\(answers)")
        #expect((answers.last?["content"] as? [String: Any])?["title"] as? String == "news")
    }

    @Test func aLineOverTheCapIsAnsweredWithoutBeingReadWhole() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", ServeTests.title("served"))
        let serve = try ServeSession(["--scripts", scratch.path("scripts"), "--max-line-bytes", "4096"])
        // A 100 MB id: its line is answered under id null, and serve never holds it.
        let huge = String(repeating: "x", count: 100 << 20)
        serve.send(#"{"id": "\#(huge)", "app": "com.example.news", "payload": {}}"#)
        serve.send(#"{"id": 7, "app": "com.example.news", "payload": {"aps": {}, "pad": "\#(String(repeating: "y", count: 10_000))"}}"#)
        serve.send(#"{"pad": "\#(String(repeating: "z", count: 10_000))", "id": 8}"#)
        serve.send(ServeTests.request(9))
        let lines = try await serve.output(count: 4)
        let peakKiB = try #require(serve.memoryKiB("VmHWM"))
        // Answers are written as they are ready: lanes may answer the error lines in any order.
        let answers = try lines.map(parseJSON)
        let unnamed = answers.filter { $0["id"] is NSNull }.compactMap { $0["error"] as? String }
        #expect(unnamed.count == 2, "the huge line and the one whose id comes after the cap: \(unnamed)")
        #expect(unnamed.contains { $0.hasPrefix("the line is 104857") }, "\(unnamed)")
        #expect(unnamed.contains { $0.hasPrefix("the line is 100") }, "an id after the cap is not looked for: \(unnamed)")
        let seven = try #require(answers.first { $0["id"] as? Int == 7 })
        #expect((seven["error"] as? String)?.contains("over the 4096-byte cap (--max-line-bytes)") == true)
        let nine = try #require(answers.first { $0["id"] as? Int == 9 })
        #expect((nine["content"] as? [String: Any])?["title"] as? String == "served")
        #expect(peakKiB < 100 << 10, "serve held \(peakKiB) KiB at its peak for a 100 MB line")
        _ = try await serve.finish()
    }

    @Test func jsonLogsSayEveryEvent() async throws {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", ServeTests.title("t"))
        try scratch.write("scripts/com.example.broken.lua", "function didReceive(")
        let input = [ServeTests.request(1), ServeTests.request(2, app: "com.example.broken"), "nonsense"].joined(separator: "\n") + "\n"
        let out = try await CLI.run(["serve", "--scripts", scratch.path("scripts"), "--log-format", "json", "--ordered"], stdin: input)
        #expect(out.status == 0)
        let events = try out.errorLines.map(parseJSON)
        #expect(events.first?["event"] as? String == "start")
        #expect(events.first?["isolation"] as? String != nil)
        #expect(events.first?["concurrency"] as? Int == 16)
        // Logged as each is ready: in the order of their ids here.
        let answers = events.filter { $0["event"] as? String == "answer" }.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        #expect(answers.map { $0["id"] as? Int } == [1, 2])
        #expect(answers.map { $0["app"] as? String } == ["com.example.news", "com.example.broken"])
        #expect(answers.map { $0["outcome"] as? String } == ["completed", "fallback"])
        #expect(answers[0]["reason"] is NSNull)
        #expect(answers[1]["reason"] as? String == "load")
        #expect(answers.allSatisfy { ($0["ms"] as? Double ?? -1) >= 0 })
        #expect(events.contains { $0["event"] as? String == "script-rejected" && $0["app"] as? String == "com.example.broken" })
        #expect(events.last?["event"] as? String == "stopped")
        #expect(events.last?["answered"] as? Int == 3)
    }

    @Test func theMetricsFileCountsTheRequestsSent() async throws {
        let python = "/usr/bin/python3"
        let parses = try await CLI.run(["-c", "import prometheus_client.parser"], executable: URL(fileURLWithPath: python))
        try #require(parses.status == 0, "the Prometheus parser is missing: run scripts/setup (python3-prometheus-client)")
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", ServeTests.title("t"))
        try scratch.write("scripts/com.example.slow.lua", "function didReceive(r, c) while true do end end")
        let metrics = scratch.path("metrics.prom")
        var input = (1...5).map { ServeTests.request($0) }
        input += (6...7).map { ServeTests.request($0, app: "com.example.none") }
        input += [ServeTests.request(8, app: "com.example.slow"), "nonsense"]
        let out = try await CLI.run(
            ["serve", "--scripts", scratch.path("scripts"), "--metrics", metrics, "--cpu-ms", "20"], stdin: input.joined(separator: "\n") + "\n")
        #expect(out.status == 0, "\(out)")
        let reader = try scratch.write("read.py", """
            import json, sys
            from prometheus_client.parser import text_string_to_metric_families
            samples = {}
            for family in text_string_to_metric_families(open(sys.argv[1]).read()):
                for s in family.samples:
                    key = s.name + "".join("|%s=%s" % kv for kv in sorted(s.labels.items()))
                    samples[key] = s.value
            print(json.dumps(samples))
            """)
        let parsed = try await CLI.run([reader, metrics], executable: URL(fileURLWithPath: python))
        try #require(parsed.status == 0, "\(parsed)")
        let samples = try #require(try parseJSON(parsed.stdout) as? [String: Double])
        #expect(samples["pushscript_serve_deliveries_total|app=com.example.news|outcome=completed"] == 5)
        #expect(samples["pushscript_serve_deliveries_total|app=com.example.none|outcome=fallback"] == 2)
        #expect(samples["pushscript_serve_deliveries_total|app=com.example.slow|outcome=fallback"] == 1)
        #expect(samples["pushscript_serve_fallbacks_total|reason=no-script"] == 2)
        #expect(samples["pushscript_serve_fallbacks_total|reason=cpu"] == 1)
        #expect(samples["pushscript_serve_invalid_lines_total"] == 1)
        #expect(samples["pushscript_serve_delivery_seconds_count"] == 8)
        #expect(samples["pushscript_serve_delivery_seconds_bucket|le=+Inf"] == 8)
        #expect(samples.keys.contains { $0.hasPrefix("pushscript_serve_script_info|app=com.example.news|sha256=") })
        #expect((samples["pushscript_serve_resident_memory_bytes"] ?? 0) > Double(1 << 20))
        #expect((samples["pushscript_serve_lua_threads"] ?? 0) >= 1)
    }
}
