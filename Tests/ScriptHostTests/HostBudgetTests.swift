import Foundation
import NotificationModel
import ScriptHost
import Testing

/// What the host copies of a script's data is bounded by the state's memory limit: a copy that
/// would pass it is refused before it is built.
@Suite(.serialized) struct HostBudgetTests {
    @Test func aUserInfoSharingOneTableAMillionTimesIsNotReadBack() async throws {
        // 40 KB in the state; read back, it was a million host values (231 MB of host memory
        // and a 14 MB result).
        let result = try await deliver("""
            function didReceive(r, c)
              c.title = "kept"
              local leaf, row, list = {}, {}, {}
              for i = 1, 1000 do row[i] = leaf end
              for i = 1, 1000 do list[i] = row end
              c.userInfo.list = list
            end
            """)
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .error)
        #expect(result.reason?.message.contains("userInfo could not be read back: value too large to convert") == true)
        #expect(result.content.title == "kept")
        let json = try result.jsonValue.jsonData()
        #expect(json.count < 64 << 10, "the result holds the last userInfo that could be read, not the copy")
    }

    @Test func aUserInfoSharingATableAFewTimesIsReadBack() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              local leaf, list = {a = 1}, {}
              for i = 1, 100 do list[i] = leaf end
              c.userInfo.list = list
            end
            """)
        #expect(result.outcome == .completed, "\(result.reason?.message ?? "")")
        #expect(result.content.userInfo["list"]?.arrayValue?.count == 100)
    }

    @Test func jsonDecodeRefusesBeforeParsingWhatCannotFit() async throws {
        let shown = try await values("""
            local text = "[" .. ("1"):rep(1000000, ",") .. "]"
            return json.decode(text)
            """)
        #expect(shown?.first == .nil)
        if case .bytes(let message)? = shown?.last {
            #expect(String(decoding: message, as: UTF8.self).hasPrefix("too large: the decoded value needs at least 16000040 bytes, and the script has "), "a slot of 16 bytes for each of a million values, and one table")
        } else {
            Issue.record("no message")
        }
        // what fits is decoded
        #expect(try await values("return #json.decode('[' .. ('1'):rep(10000, ',') .. ']')") == [.integer(10000)])
    }
}
