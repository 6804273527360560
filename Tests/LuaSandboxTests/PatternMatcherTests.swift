import CLuaSandbox
import Foundation
import Testing

/// The project's pattern matcher against stock Lua 5.4's: every case in
/// PatternCases/differential.lua runs through both, and all results must be equal.
@Suite struct PatternMatcherTests {
    static let casesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .appendingPathComponent("PatternCases")

    @Test func resultsEqualStockLua() async throws {
        let file = Self.casesDirectory.appendingPathComponent("differential.lua")
        let source = Array(try Data(contentsOf: file))
        let (count, report) = await onLuaThread { comparePatterns(source: source) }
        // 378 written cases and 3,000 random ones
        #expect(count >= 3_378, "the case file did not run: \(report)")
        #expect(report.isEmpty, "mismatches with stock Lua:\n\(report)")
    }

    @Test func comparisonCatchesADifference() async {
        // The harness must be able to fail: a chunk that sees own.find differ from
        // string.find reports it.
        let chunk = """
            local a = table.pack(string.find("abc", "b"))
            local b = table.pack(own.find("abc", "c"))
            return 1, (a[1] == b[1]) and "" or "differs"
            """
        let (count, report) = await onLuaThread { comparePatterns(source: Array(chunk.utf8)) }
        #expect(count == 1)
        #expect(report == "differs")
    }

    @Test func chunkErrorsAreReported() async {
        let (count, report) = await onLuaThread {
            comparePatterns(source: Array("error('no cases')".utf8))
        }
        #expect(count == -1)
        #expect(report.contains("no cases"))
    }

    @Test func sandboxUsesTheOwnMatcher() async {
        // In a sandboxed state, the string table and string methods match, and a matcher
        // error is an ordinary error that pcall catches.
        let run = await onLuaThread {
            runSandboxed("""
                local r = {}
                r[#r + 1] = select(1, ("abc"):gsub("%w", "%0%0"))
                r[#r + 1] = string.match("key=value", "(%w+)=(%w+)")
                for w in ("a b c"):gmatch("%a") do r[#r + 1] = w end
                r[#r + 1] = tostring(string.find("x.y", ".", 1, true))
                local ok, err = pcall(string.find, ("a"):rep(300), ("a?"):rep(200))
                r[#r + 1] = err
                local result = table.concat(r, ",")
                assert(result == "aabbcc,key,a,b,c,2,pattern too complex", result)
                reached = true
                """)
        }
        #expect(run.status == Int32(PSS_OK.rawValue), "\(run.message)")
        #expect(run.reachedType == luaTypeBoolean)
    }
}
