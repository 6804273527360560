import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

@Suite(.serialized) struct LogTests {
    @Test func entriesFollowStringFormatAndPrintJoinsByTabs() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              log.debug("%d items", 3)
              log.info("%5.1f|%s|%q", 3.14159, "x", "a\\nb")
              log.warn("plain")
              log.error("%s", nil)
              print("a", 1, nil, true, 2.5)
            end
            """)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.logs == [
            LogEntry(level: .debug, message: "3 items"),
            LogEntry(level: .info, message: "  3.1|x|\"a\\\nb\""),
            LogEntry(level: .warn, message: "plain"),
            LogEntry(level: .error, message: "nil"),
            LogEntry(level: .info, message: "a\t1\tnil\ttrue\t2.5"),
        ])
    }

    @Test func bytesThatAreNotUTF8AreLoggedAsReplacementCharacters() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              log.info("\\255 bad %s", "\\254")
              print("\\255", "ok")
            end
            """)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.logs.map(\.message) == ["\u{FFFD} bad \u{FFFD}", "\u{FFFD}\tok"])
        #expect(result.logs.allSatisfy { $0.level == .info && $0.source == nil })
    }

    @Test func aRequestKeepsAtMost200EntriesThenOneHostWarning() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              for i = 1, 250 do log.info("entry %d", i) end
            end
            """)
        #expect(result.logs.count == 201)
        #expect(result.logs[199].message == "entry 200")
        let last = try #require(result.logs.last)
        #expect(last.level == .warn && last.source == "host" && last.message.contains("50 log entries dropped"), "\(last)")
    }

    @Test func aRequestKeepsAtMost64KiBOfLogText() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              local line = string.rep("x", 1000)
              for i = 1, 70 do log.info("%s", line) end
            end
            """)
        let kept = result.logs.filter { $0.source == nil }
        #expect(kept.count == 65, "65 entries of 1000 bytes fit in 64 KiB")
        #expect(kept.reduce(0) { $0 + $1.message.utf8.count } <= 64 * 1024)
        #expect(result.logs.last?.source == "host" && result.logs.last?.message.contains("5 log entries dropped") == true)
    }

    @Test func aBadFormatArgumentNamesStringFormatAsStockLuaDoes() async throws {
        // log.* format with string.format, called from C: stock Lua names it 'string.format'
        let result = try await deliver("""
            function didReceive(r, c)
              local ok, err = pcall(log.info, "%d items", "many")
              c.title = err
              log.warn("%s", {})
            end
            """)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.content.title == "bad argument #2 to 'string.format' (number expected, got string)")
        #expect(result.logs.first?.message.hasPrefix("table: ") == true)
    }
}
