import CLuaSandbox
import Testing

/// Hostile patterns in a real sandboxed state with a 100 ms CPU budget: each must end in the
/// CPU limit (not the 2 s deadline), inside the pattern call where the call is what costs,
/// with the process alive. Stock Lua runs several of these for hours in one C call.
@Suite(.serialized) struct PatternHostileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        /// The kill must come inside the pattern call (the chunk sets `reached` after it).
        var killedInsideCall: Bool
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "attack 33: twelve lazy .- and no b", source: """
            pcall(string.find, ("a"):rep(1e5), (".-"):rep(12) .. "b")
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "nested lazy captures", source: """
            pcall(string.match, ("a"):rep(5000), ("(.-)"):rep(8) .. "b")
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "exponential optional items", source: """
            pcall(string.find, ("a"):rep(60), ("a?"):rep(60) .. ("a"):rep(60) .. "$")
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "greedy runs with a back reference", source: """
            pcall(string.match, ("ab"):rep(20000), ("(.*)"):rep(3) .. "%1%2x")
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "%b on a huge unbalanced subject", source: """
            pcall(string.find, ("("):rep(2e5), "%b()")
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "sets and classes in nested greedy runs", source: """
            pcall(string.find, ("a1_"):rep(1e4), "%f[%w][%w_]*[%w_]*[%w_]*%s")
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "gsub of a quadratic pattern over a big subject", source: """
            pcall(string.gsub, ("a"):rep(1e6), "(.-)b", "%1")
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "gsub over a big subject, again and again", source: """
            local s = ("abc "):rep(250000)
            for _ = 1, 1e9 do s:gsub("%w+", "%0") end
            reached = true
            """, killedInsideCall: true),
        Case(name: "gmatch of a quadratic pattern", source: """
            pcall(function() for _ in (("a"):rep(1e5)):gmatch(".-x") do end end)
            reached = true
            while true do end
            """, killedInsideCall: true),
        Case(name: "attack 34: plain find 4e6 x 4e4", source: """
            local s = ("a"):rep(4e6)
            local p = ("a"):rep(4e4) .. "b"
            pcall(string.find, s, p, 1, true)
            reached = true
            while true do end
            """, killedInsideCall: false),
        Case(name: "plain find 4e6 x 4e4, again and again", source: """
            local s = ("a"):rep(4e6)
            local p = ("a"):rep(4e4) .. "b"
            for _ = 1, 1e9 do string.find(s, p, 1, true) end
            reached = true
            """, killedInsideCall: true),
    ]

    @Test(arguments: cases) func endsInTheCPULimit(_ hostile: Case) async {
        let run = await onLuaThread { runSandboxed(hostile.source) }
        #expect(run.killedByCPU,
                "status \(run.status), trip \(run.trip), message \(run.message)")
        // Within the budget plus the time between two clock reads, far from the deadline.
        #expect(run.cpuMilliseconds < 150, "used \(run.cpuMilliseconds) ms of CPU")
        #expect(run.wallMilliseconds < 1500, "took \(run.wallMilliseconds) ms")
        if hostile.killedInsideCall {
            #expect(run.reachedType == 0, "the call returned before the kill")
        }
    }

    @Test func gsubCallbackRecursionEndsInCStackOverflow() async {
        // Attack 30: gsub -> Lua callback -> gsub ... must end in Lua's own C-stack error.
        let run = await onLuaThread {
            runSandboxed("""
                local function foo() string.gsub("a", ".", foo) end
                foo()
                reached = true
                """)
        }
        #expect(run.status == Int32(PSS_ERROR.rawValue), "status \(run.status)")
        #expect(run.message.contains("stack overflow"), "\(run.message)")
        #expect(run.reachedType == 0)
    }
}
