import Foundation
import TestSupport
import Testing

/// `pushscript run`: exit statuses, the result JSON, and the options' effects.
@Suite(.serialized) struct RunTests {
    @Test func completedExitsZeroAndPrintsTheResult() async throws {
        let inputs = try scriptAndPayload(#"function didReceive(r, c) c.title = "Hello" c.badge = 2 log.info("done") end"#)
        let (script, payload) = (inputs.script, inputs.payload)
        let out = try await CLI.run(["run", script, payload])
        #expect(out.status == 0, "\(out)")
        #expect(out.stderr == "")
        let result = try parseJSON(out.stdout)
        #expect(result["outcome"] as? String == "completed")
        #expect(result["reason"] == nil)
        let content = try #require(result["content"] as? [String: Any])
        #expect(content["title"] as? String == "Hello")
        #expect(content["body"] as? String == "original")
        #expect(content["badge"] as? Int == 2)
        #expect(content["sound"] is NSNull)
        #expect((content["attachments"] as? [Any])?.isEmpty == true)
        let logs = try #require(result["logs"] as? [[String: Any]])
        #expect(logs.count == 1)
        #expect(logs.first?["level"] as? String == "info")
        #expect(logs.first?["message"] as? String == "done")
        let stats = try #require(result["stats"] as? [String: Any])
        #expect(stats["cpuMs"] is NSNumber)
        #expect(stats["wallMs"] is NSNumber)
        #expect((stats["memoryPeakBytes"] as? Int ?? 0) > 0)
    }

    @Test func libFoldersAreSearchedForModulesInOrder() async throws {
        let scratch = try TemporaryFolder()
        let script = try scratch.write("rules.lua", #"local t = require "lib.text" function didReceive(r, c) c.title = t.name end"#)
        _ = try scratch.write("first/lib/text.lua", #"return {name = "first"}"#)
        _ = try scratch.write("second/lib/text.lua", #"return {name = "second"}"#)
        let payload = try scratch.write("p.json", plainPayload)
        let first = scratch.url.appendingPathComponent("first").path, second = scratch.url.appendingPathComponent("second").path
        let out = try await CLI.run(["run", script, payload, "--lib", second, "--lib", first])
        #expect(out.status == 0, "\(out)")
        let content = try #require(try parseJSON(out.stdout)["content"] as? [String: Any])
        #expect(content["title"] as? String == "second")
        let missing = try await CLI.run(["run", script, payload])
        #expect(missing.status == 3)
        #expect(missing.stdout.contains("module 'lib.text' not found"))
    }

    @Test func aCopiedBinaryStillHasTheBundledModules() async throws {
        let scratch = try TemporaryFolder()
        let alone = scratch.url.appendingPathComponent("bin/pushscript")
        try FileManager.default.createDirectory(at: alone.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.binary, to: alone)
        let script = try scratch.write("work/rules.lua", """
            local providers = require "pushscript.providers"
            function didReceive(r, c) c.title = tostring(providers.detect(c.userInfo)) end
            """)
        let payload = try scratch.write("work/p.json", #"{"aps": {"alert": "x", "mutable-content": 1}, "custom": {"i": "abc"}}"#)
        let out = try await CLI.run(["run", script, payload], in: scratch.url.appendingPathComponent("bin"), executable: alone)
        #expect(out.status == 0, "\(out)")
        let content = try #require(try parseJSON(out.stdout)["content"] as? [String: Any])
        #expect(content["title"] as? String == "onesignal")
    }

    @Test func theResultKeepsSpecKeyOrder() async throws {
        let inputs = try scriptAndPayload(#"function didReceive(r, c) c:suppress() error("late") end"#)
        let (script, payload) = (inputs.script, inputs.payload)
        let out = try await CLI.run(["run", script, payload])
        #expect(out.status == 3, "\(out)")
        #expect(keysInOrder(out.stdout, indent: 2) == ["outcome", "reason", "suppressed", "content", "logs", "stats", "script", "registeredCategories", "categories", "posts"])
        #expect(keysInOrder(out.stdout, indent: 4, under: "reason") == ["kind", "message"])
        #expect(keysInOrder(out.stdout, indent: 4, under: "content") == [
            "title", "subtitle", "body", "badge", "sound", "categoryIdentifier", "threadIdentifier",
            "targetContentIdentifier", "interruptionLevel", "relevanceScore", "filterCriteria", "launchImageName",
            "summaryArgument", "summaryArgumentCount", "userInfo", "attachments",
        ])
        #expect(keysInOrder(out.stdout, indent: 4, under: "stats") == ["cpuMs", "wallMs", "deliveredMs", "memoryPeakBytes"])
        let result = try parseJSON(out.stdout)
        #expect(result["suppressed"] as? Bool == true)
        #expect((result["reason"] as? [String: Any])?["message"] as? String == "rules.lua:1: late")
    }

    @Test func fallbackExitsThree() async throws {
        let scratch = try TemporaryFolder()
        let payload = try scratch.write("p.json", plainPayload)
        let cases: [(String, String)] = [
            ("error", #"function didReceive(r, c) c.title = "half" error("boom") end"#),
            ("load", "function didReceive("),
        ]
        for (kind, source) in cases {
            let script = try scratch.write("\(kind).lua", source)
            let out = try await CLI.run(["run", script, payload])
            #expect(out.status == 3, "\(kind): \(out)")
            let result = try parseJSON(out.stdout)
            #expect(result["outcome"] as? String == "fallback")
            #expect((result["reason"] as? [String: Any])?["kind"] as? String == kind)
        }
    }

    /// An `.apns` file, known by its extension in any case, names the app; `--app` wins.
    @Test(arguments: ["p.apns", "Push.APNS"])
    func anApnsFileNamesTheAppAndAppOptionWins(file: String) async throws {
        let scratch = try TemporaryFolder()
        let script = try scratch.write("rules.lua", #"function didReceive(r, c) c.title = tostring(r.app) end"#)
        let apns = try scratch.write(file, #"{"Simulator Target Bundle": "com.example.news", "aps": {"alert": "hi", "mutable-content": 1}}"#)
        let fromFile = try await CLI.run(["run", script, apns])
        #expect(fromFile.status == 0, "\(fromFile)")
        let content = try parseJSON(fromFile.stdout)["content"] as? [String: Any]
        #expect(content?["title"] as? String == "com.example.news")
        // The key names the app; it is not part of the payload delivered.
        #expect((content?["userInfo"] as? [String: Any])?["Simulator Target Bundle"] == nil)
        let overridden = try await CLI.run(["run", script, apns, "--app", "com.example.other"])
        #expect((try parseJSON(overridden.stdout)["content"] as? [String: Any])?["title"] as? String == "com.example.other")
    }

    @Test func localeSetsTheRequestsLocales() async throws {
        let inputs = try scriptAndPayload(#"function didReceive(r, c) c.title = table.concat(r.locales, "|") c.body = tostring(locale.best({"en", "de"})) end"#)
        let (script, payload) = (inputs.script, inputs.payload)
        let given = try await CLI.run(["run", script, payload, "--locale", "de-AT, en"])
        let content = try parseJSON(given.stdout)["content"] as? [String: Any]
        #expect(content?["title"] as? String == "de-AT|en")
        #expect(content?["body"] as? String == "de")
        let none = try await CLI.run(["run", script, payload])
        #expect((try parseJSON(none.stdout)["content"] as? [String: Any])?["title"] as? String == "en")
    }

    @Test func limitOptionsTakeEffect() async throws {
        let scratch = try TemporaryFolder()
        let payload = try scratch.write("p.json", plainPayload)
        let busy = try scratch.write("busy.lua", "function didReceive(r, c) while true do end end")
        let cpu = try await CLI.run(["run", busy, payload, "--cpu-ms", "20"])
        #expect(cpu.status == 3, "\(cpu)")
        #expect(try reason(cpu) == ["kind": "cpu", "message": "the script used more than its 20 ms of CPU"])

        let start = ContinuousClock.now
        let time = try await CLI.run(["run", busy, payload, "--cpu-ms", "60000", "--time-ms", "300"])
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(time.status == 3, "\(time)")
        #expect(try reason(time) == ["kind": "time", "message": "the deadline of 300 ms came before didReceive returned"])

        let hungry = try scratch.write("hungry.lua", #"function didReceive(r, c) local t = {} for i = 1, 1e6 do t[i] = ("x"):rep(64) .. i end end"#)
        let memory = try await CLI.run(["run", hungry, payload, "--memory-mb", "1", "--cpu-ms", "60000"])
        #expect(memory.status == 3, "\(memory)")
        #expect(try reason(memory) == ["kind": "memory", "message": "the script's Lua state needed more than 1 MiB of memory"])
        // The same script within a bigger limit gets further than 1 MiB.
        let roomier = try await CLI.run(["run", hungry, payload, "--memory-mb", "4", "--cpu-ms", "60000"])
        let peak = (try parseJSON(roomier.stdout)["stats"] as? [String: Any])?["memoryPeakBytes"] as? Int ?? 0
        #expect(peak > 1 << 20)
    }

    @Test func keyAndMediaSplitAtTheFirstEquals() async throws {
        let scratch = try TemporaryFolder()
        let payload = try scratch.write("p.json", plainPayload)
        let script = try scratch.write("rules.lua", """
            function didReceive(r, c)
              c.title = hex.encode(keys.get("inbox") or "")
              local file, err = download("https://cdn.example.com/a.jpg")
              if file then c:attach(file) c.body = file.type else c.body = err end
            end
            """)
        // The base64 value keeps its padding; the file's path holds an '='.
        let media = try scratch.write("a=b.jpg", jpegBytes)
        let out = try await CLI.run([
            "run", script, payload, "--key", "inbox=AAECAw==", "--media", "https://cdn.example.com/a.jpg=\(media)",
        ])
        #expect(out.status == 0, "\(out)")
        let content = try parseJSON(out.stdout)["content"] as? [String: Any]
        #expect(content?["title"] as? String == "00010203")
        #expect(content?["body"] as? String == "public.jpeg")
        #expect((content?["attachments"] as? [Any])?.count == 1)
    }

    @Test func mediaKeepsEverythingBeforeTheLastEqualsAsTheURL() async throws {
        let scratch = try TemporaryFolder()
        let payload = try scratch.write("p.json", plainPayload)
        let script = try scratch.write("rules.lua", """
            function didReceive(r, c)
              local file, err = download("https://cdn.example.com/banner.jpg?filename=banner.jpg&sig=ab=")
              c.body = file and file.type or err
            end
            """)
        let media = try scratch.write("banner.jpg", jpegBytes)
        let out = try await CLI.run([
            "run", script, payload, "--offline", "--media", "https://cdn.example.com/banner.jpg?filename=banner.jpg&sig=ab==\(media)",
        ])
        #expect(out.status == 0, "\(out)")
        #expect((try parseJSON(out.stdout)["content"] as? [String: Any])?["body"] as? String == "public.jpeg", "\(out.stdout)")
        let missing = try await CLI.run(["run", script, payload, "--media", "https://cdn.example.com/a.jpg?x=1=nowhere.jpg"])
        #expect(missing.status == 2)
        #expect(missing.errorLines == ["pushscript run: --media https://cdn.example.com/a.jpg?x=1: cannot read nowhere.jpg; give URL=FILE with a readable file"])
    }

    @Test func mediaMapTakesTheFixtureShapeAndOfflineRefusesTheRest() async throws {
        let scratch = try TemporaryFolder()
        let payload = try scratch.write("p.json", plainPayload)
        let script = try scratch.write("rules.lua", """
            function didReceive(r, c)
              local out = {}
              for _, u in ipairs{"https://cdn.example.com/a.jpg?w=2", "https://cdn.example.com/gone.jpg", "https://elsewhere.example.com/x.jpg"} do
                local file, err = download(u)
                out[#out + 1] = file and file.type or err
              end
              c.body = table.concat(out, "|")
            end
            """)
        try scratch.write("media/a.jpg", jpegBytes)
        let map = try scratch.write("media.json", #"{"https://cdn.example.com/a.jpg?w=2": "media/a.jpg", "https://cdn.example.com/gone.jpg": {"status": 404}}"#)
        let out = try await CLI.run(["run", script, payload, "--media-map", map, "--offline"])
        #expect(out.status == 0, "\(out)")
        let body = (try parseJSON(out.stdout)["content"] as? [String: Any])?["body"] as? String ?? ""
        let parts = body.split(separator: "|").map(String.init)
        #expect(parts.count == 3, "\(body)")
        #expect(parts.first == "public.jpeg")
        #expect(parts.dropFirst().first?.hasPrefix("http 404") == true)
        #expect(parts.last == "network: no media answer for 'https://elsewhere.example.com/x.jpg' and no network to ask")

        let bad = try scratch.write("bad.json", #"{"https://x.example/a.jpg": {"status": 99}}"#)
        let refused = try await CLI.run(["run", script, payload, "--media-map", bad])
        #expect(refused.status == 2)
        #expect(refused.errorLines.first?.hasPrefix("pushscript run: --media-map \(bad): entry for https://x.example/a.jpg: 'status' must be an HTTP status code") == true, "\(refused)")
        let broken = try scratch.write("broken.json", #"{"https://x.example/a.jpg": "a.jpg",}"#)
        let unread = try await CLI.run(["run", script, payload, "--media-map", broken])
        #expect(unread.errorLines.first?.hasPrefix("pushscript run: --media-map \(broken): not valid JSON: a comma before '}' around character 35") == true, "\(unread)")
        let flag = try await CLI.run(["run", script, payload, "--offline=yes"])
        #expect(flag.status == 2)
        #expect(flag.errorLines == ["pushscript run: option '--offline' takes no value; give it alone"])
    }

    private func reason(_ out: CLIOutput) throws -> [String: String] {
        (try parseJSON(out.stdout)["reason"] as? [String: String]) ?? [:]
    }
}
