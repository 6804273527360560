import CLuaSandboxTesting
import LuaSandbox
import Testing

/// The allocator keeps the small blocks a state frees and gives them out again: blocks that
/// grow from small to large and back keep their bytes, a reused block is whole, and the
/// memory limit still counts what Lua asked for.
@Suite struct SmallBlockTests {
    @Test func blocksThatGrowAndShrinkAcrossTheSmallSizesKeepTheirBytes() throws {
        let sandbox = try LuaSandbox()
        // An array part grows one slot at a time through every small size and past them; a
        // table's hash part, and strings of every small length, are made and freed in turns.
        let status = runScript("""
            local t = {}
            for i = 1, 2000 do
              t[i] = i * 3
              for j = 1, i, 97 do assert(t[j] == j * 3) end
            end
            for i = 2000, 1, -1 do t[i] = nil end
            for round = 1, 3 do
              local kept = {}
              for n = 1, 700 do kept[n] = string.rep(string.char(65 + n % 26), n) end
                for n = 1, 700 do
                local s = kept[n]
                assert(#s == n and s:byte(1) == 65 + n % 26 and s:byte(n) == 65 + n % 26)
              end
              local h = {}
              for k = 1, 300 do h["k" .. k] = k end
              for k = 1, 300 do assert(h["k" .. k] == k) end
            end
            """, in: sandbox)
        #expect(status == .completed)
    }

    @Test func theLimitCountsWhatLuaAskedForNotTheBlocksKept() throws {
        let limit = 1 << 20
        let sandbox = try LuaSandbox(memoryLimit: limit)
        let limits = RunLimits(cpuTime: .seconds(2), memoryBytes: limit, deadline: .after(.seconds(5)))
        // Many small blocks made, then freed and kept: a later run may still use up to the limit.
        let churn = "for round = 1, 20 do local t = {} for i = 1, 4000 do t[i] = {i} end end"
        #expect(runScript(churn, in: sandbox, limits: limits) == .completed)
        sandbox.resetMemoryPeak()
        let status = runScript("""
            local head
            while true do head = {head} end
            """, in: sandbox, limits: limits)
        #expect(status == .limit(.memory))
        #expect(sandbox.memoryPeak <= limit)
        #expect(sandbox.memoryPeak >= limit - 4096)
    }

    @Test(.enabled(if: pss_testing_heap_bytes() > 0, "the C library does not say what it has handed out"))
    func aStateThatCannotOpenWithinItsLimitLeavesNoBlockBehind() {
        // lua_newstate frees what it made when it cannot open the state within the limit; those
        // small blocks go to the context's lists, which must be freed with the context.
        let before = pss_testing_heap_bytes()
        var failed = 0
        for _ in 0..<400 {
            for limit in stride(from: 1024, to: 8192, by: 64) {
                if (try? LuaSandbox(memoryLimit: limit)) == nil { failed += 1 }
            }
        }
        let grown = Int(pss_testing_heap_bytes()) - Int(before)
        #expect(failed > 0)
        #expect(grown < 2 << 20, "the heap grew by \(grown) bytes over \(failed) states that could not open")
    }
}

