import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

@Suite struct DeliveryTests {
    @Test func completedRunDeliversWhatTheScriptWrote() async throws {
        let result = try await deliver("""
            function didReceive(request, content)
              content.title = "Hello"
              content.body = request.content.body .. "!"
              content.badge = 3
              log.info("set %d fields", 3)
            end
            """)
        #expect(result.outcome == .completed)
        #expect(result.reason == nil)
        #expect(result.content.title == "Hello")
        #expect(result.content.body == "original!")
        #expect(result.content.badge == 3)
        #expect(result.logs == [LogEntry(level: .info, message: "set 3 fields")])
        let line = result.jsonLine()
        #expect(line.hasPrefix(#"{"outcome":"completed","content":{"title":"Hello","subtitle":"","body":"original!","badge":3,"#))
    }

    /// The size is checked where the script is compiled, once: a script over 1 MiB is not run
    /// and the original content is delivered.
    @Test func aScriptOverTheSizeLimitIsNotRunAndTheOriginalIsDelivered() async throws {
        let source = "function didReceive(r, c) c.title = 'ran' end\n--" + String(repeating: "x", count: Script.maximumSize)
        let result = try await deliver(source)
        #expect(result.outcome == .fallback)
        #expect(result.reason == .init(kind: .load, message: "rules.lua is \(source.utf8.count) bytes; a script may have at most 1048576 (1 MiB)"))
        #expect(result.content.title == "original")
    }

    @Test func errorDeliversTheBestAttempt() async throws {
        let result = try await deliver("""
            function didReceive(request, content)
              content.title = "attacked"
              local x = nil
              return x.y
            end
            function bestAttempt(content, reason)
              content.subtitle = reason.kind .. ": " .. reason.message
            end
            """)
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .error)
        #expect(result.reason?.message == "rules.lua:4: attempt to index a nil value (local 'x')")
        #expect(result.content.title == "attacked")
        #expect(result.content.subtitle == "error: rules.lua:4: attempt to index a nil value (local 'x')")
    }

    @Test func cpuLimitDeliversWhatWasWrittenAndRunsBestAttempt() async throws {
        let result = try await deliver("""
            function didReceive(request, content)
              content.title = "attacked"
              while true do end
            end
            function bestAttempt(content, reason) content.body = "best " .. reason.kind end
            """, limits: testLimits)
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .cpu)
        #expect(result.content.title == "attacked")
        #expect(result.content.body == "best cpu")
    }

    @Test func bestAttemptIsBoundedItself() async throws {
        let start = ContinuousClock.now
        let result = try await deliver("""
            function didReceive(request, content) error("boom") end
            function bestAttempt(content, reason) content.body = "tried" while true do end end
            """, limits: testLimits)
        // Without its own budget the loop would run until the test's 2 s deadline and beyond.
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .error)
        #expect(result.content.body == "tried")
        #expect(result.logs.contains { $0.source == "host" && $0.message.hasPrefix("bestAttempt was stopped: it used more than its 50 ms of CPU") })
    }

    @Test func loadFailuresDeliverTheOriginalUntouched() async throws {
        for source in ["function didReceive(", "error('at load')", "x = 1", "while true do end"] {
            let result = try await deliver(source, limits: testLimits)
            #expect(result.outcome == .fallback, "\(source)")
            #expect(result.reason?.kind == .load, "\(source)")
            #expect(result.content.title == "original")
        }
        let missing = await ScriptHost().deliver(NotificationRequest(payload: try originalPayload()), script: .missing)
        #expect(missing.reason?.kind == .noScript)
    }

    @Test func typoAndTypeErrorsNameTheField() async throws {
        let result = try await deliver("""
            function didReceive(request, content)
              local ok1, e1 = pcall(function() content.titel = "x" end)
              local ok2, e2 = pcall(function() content.badge = -1 end)
              local ok3, e3 = pcall(function() content.badge = "3" end)
              local ok4, e4 = pcall(function() content.title = 5 end)
              local ok5, e5 = pcall(function() request.identifier = "x" end)
              content.body = table.concat({e1, e2, e3, e4, e5}, "|")
            end
            """)
        #expect(result.outcome == .completed)
        #expect(result.content.body == [
            "rules.lua:2: content has no field 'titel'", "rules.lua:3: badge must be an integer >= 0 or nil",
            "rules.lua:4: badge must be an integer >= 0 or nil", "rules.lua:5: title must be a string",
            "rules.lua:6: request is read-only",
        ].joined(separator: "|"))
    }

    @Test func userInfoEditsAreDelivered() async throws {
        let inPlace = try await deliver("function didReceive(r, c) c.userInfo.seen = true c.userInfo.aps.badge = 2 end")
        #expect(inPlace.content.userInfo["seen"] == .bool(true))
        #expect(inPlace.content.userInfo["aps"]?["badge"] == .integer(2))
        let replaced = try await deliver("function didReceive(r, c) c.userInfo = {only = {1, 2}} end")
        #expect(replaced.content.userInfo == ["only": [1, 2]])
        let broken = try await deliver("function didReceive(r, c) c.userInfo.f = print end")
        #expect(broken.outcome == .fallback)
        #expect(broken.reason?.kind == .error)
        #expect(broken.reason?.message.contains("userInfo.f is a function") == true)
    }

    @Test func globalsDoNotLeakBetweenRequestsOrApps() async throws {
        let host = ScriptHost()
        let script = """
            function didReceive(r, c)
              c.body = tostring(counter)
              counter = (counter or 0) + 1
              string.upper = nil
            end
            """
        for app in ["a", "a", "b"] {
            let result = try await deliver(script, host: host, app: app)
            #expect(result.content.body == "nil")
        }
    }
}
