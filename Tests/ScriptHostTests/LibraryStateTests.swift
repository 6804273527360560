import Foundation
import NotificationModel
import ScriptHost
import Testing

/// Library functions whose state or options a script controls.
@Suite struct LibraryStateTests {
    @Test func mathRandomKeepsLuaSemantics() async throws {
        let shown = try await values("""
            local n1, n2 = math.randomseed(7)
            local a, b = math.random(1, 100), math.random()
            math.randomseed(7)
            local inRange = true
            for i = 1, 1000 do local x = math.random(-3, 3) if x < -3 or x > 3 then inRange = false end end
            math.randomseed(7)
            return n1, n2, a == math.random(1, 100), b == math.random(), math.random(5, 5), inRange,
              math.type(math.random(0)), pcall(math.random, 2, 1)
            """)
        #expect(shown?.prefix(7) == [.integer(7), .integer(0), .bool(true), .bool(true), .integer(5), .bool(true), .text("integer")])
        #expect(shown?.dropFirst(7).first == .bool(false))
        if case .bytes(let message)? = shown?.last {
            #expect(String(decoding: message, as: UTF8.self).contains("interval is empty"))
        }
    }

    @Test func aSeedDoesNotReachTheNextRequest() async throws {
        // The generator's state lived in the shared function: a seed decided the next request.
        let host = ScriptHost()
        let seed = try await deliver("function didReceive(r, c) math.randomseed(42) end", host: host)
        #expect(seed.outcome == .completed)
        let next = try await deliver("""
            function didReceive(r, c)
              local first = math.random(1, 1000000000)
              math.randomseed(42)
              c.body = first == math.random(1, 1000000000) and "leaked" or "clean"
            end
            """, host: host)
        #expect(next.content.body == "clean")
    }

    @Test func aPositionalDownloadOptionRaises() async throws {
        let message = try await raised(#"download("https://cdn.example.com/a.jpg", {"image"})"#)
        #expect(message?.contains(#"download: options are named, not positional: got the positional entry "image"; write {kinds = {"image"}}"#) == true, "\(message ?? "")")
        let mixed = try await raised(#"download("https://cdn.example.com/a.jpg", {timeout = 2, "image"})"#)
        #expect(mixed?.contains("options are named, not positional") == true, "\(mixed ?? "")")
    }
}
