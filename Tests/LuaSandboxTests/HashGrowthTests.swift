import CLuaSandboxTesting
import Testing
@testable import LuaSandbox

/// No single instruction outruns its budget: a table's hash part is not grown (or shrunk) when
/// re-inserting its keys, some of which may share one chain, could cost more than the CPU left;
/// the compiler's constant table is held to the same rule; the host's read-back of a value is
/// charged as it walks. Each vector ran for seconds in one call before (README, attack cases
/// 220-226); here it must end near its budget, and tables of legitimate keys grow as before.
@Suite struct HashGrowthTests {
    private let limits = RunLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, deadline: .after(.seconds(20)))

    /// Runs `source` under `limits` and returns its status and the CPU time it used.
    private func measure(_ source: String, limits: RunLimits? = nil, memory: Int = 8 << 20) throws -> (RunStatus, Duration) {
        let sandbox = try LuaSandbox(memoryLimit: memory)
        let start = currentThreadCPUTime()
        let status = runScript(source, in: sandbox, limits: limits ?? self.limits)
        return (status, currentThreadCPUTime() - start)
    }

    @Test func theAllocatorReadsTheKeysOfThisLua() throws {
        _ = try LuaSandbox()
        #expect(pss_testing_reads_hash_parts() == 3)
    }

    @Test func integerKeysSharingOneChainCannotGrowATable() throws {
        let (status, cpu) = try measure("""
            local t = {}
            local M = (1 << 17) - 1
            for i = 1, (1 << 16) + 1 do t[i * M] = true end
            """)
        #expect(status == .limit(.cpu))
        #expect(cpu < .milliseconds(130), "\(cpu)")
    }

    @Test func aHashPartShrunkOntoOneChainIsRefused() throws {
        let (status, cpu) = try measure("""
            local t = {}
            local M = (1 << 16) - 1
            for i = 1, (1 << 16) + 1 do t[i + 0.5] = true end
            for i = 1, (1 << 16) - 1 do t[i * M] = true end
            for i = 1, (1 << 16) + 1 do t[i + 0.5] = nil end
            t[0.25] = true
            """)
        #expect(status == .limit(.cpu))
        #expect(cpu < .milliseconds(130), "\(cpu)")
    }

    @Test func floatKeysSharingOneChainCannotGrowATable() throws {
        let (status, cpu) = try measure("""
            local t = {}
            local M = (1 << 17) - 1
            local count, e = 0, 0
            while count < (1 << 16) + 1 do
              local c = (5 - e) % M
              local k = ((1 << 30) - c + M - 1) // M
              while c + k * M < (1 << 31) and count < (1 << 16) + 1 do
                t[(c + k * M) * 2.0 ^ (e - 31)] = true
                count = count + 1
                k = k + 1
              end
              e = e + 1
            end
            """)
        #expect(status == .limit(.cpu))
        #expect(cpu < .milliseconds(130), "\(cpu)")
    }

    /// Growths each just under what the CPU left allows, one after another, end within the
    /// budget's margin.
    @Test func growthsJustUnderTheCPULeftEndWithinTheMargin() throws {
        let (status, cpu) = try measure("""
            local M = (1 << 13) - 1
            while true do
              local t = {}
              for i = 1, (1 << 12) + 1 do t[i * M] = true end
            end
            """)
        #expect(status == .limit(.cpu))
        #expect(cpu < .milliseconds(130), "\(cpu)")
    }

    @Test func constantsSharingOneChainStopTheCompile() throws {
        let sandbox = try LuaSandbox()
        let divisor = (1 << 16) - 1
        var constants = ""
        for i in 1...((1 << 15) + 1) { constants += "\(i * divisor)," }
        sandbox.arm(limits)
        defer { sandbox.disarm() }
        let start = currentThreadCPUTime()
        let compiled = sandbox.compile("local x = {\(constants)}", chunkName: "constants.lua")
        let cpu = currentThreadCPUTime() - start
        guard case .failed(let status) = compiled else {
            Issue.record("it compiled")
            return
        }
        #expect(status == RunStatus.limit(.cpu))
        #expect(cpu < .milliseconds(130), "\(cpu)")
    }

    @Test func aLoadedChunkWhoseConstantsShareOneChainEndsAtTheBudget() throws {
        let (status, cpu) = try measure("""
            local M = (1 << 17) - 1
            local i, n = 0, (1 << 16) + 1
            local f = load(function()
              if i == 0 then i = 1 return "local x = {" end
              if i > n then if i == n + 1 then i = i + 1 return "}" end return nil end
              local piece = {}
              for j = i, math.min(n, i + 199) do piece[#piece + 1] = (j * M) .. "," end
              i = i + 200
              return table.concat(piece)
            end)
            """)
        #expect(status == .limit(.cpu))
        #expect(cpu < .milliseconds(130), "\(cpu)")
    }

    /// Tables of legitimate keys grow as in stock Lua: 40,000 string keys, 40,000 integers in
    /// the hash part (a sparse array), floats, all under a budget whose worst case they pass.
    @Test func tablesOfLegitimateKeysGrow() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local names, sparse, floats = {}, {}, {}
            for i = 1, 40000 do names["key" .. i] = i end
            for i = 1, 40000 do sparse[i * 7] = i end
            for i = 1, 20000 do floats[i + 0.5] = i end
            local n = 0
            for _ in pairs(names) do n = n + 1 end
            result(n) result(sparse[7 * 40000]) result(floats[20000.5])
            """, limits: RunLimits(cpuTime: .milliseconds(300), memoryBytes: 8 << 20, deadline: .after(.seconds(20))))
        #expect(status == .completed)
        #expect(values == [.integer(40000), .integer(40000), .integer(20000)])
    }

    /// A value whose keys share one chain is walked by the host's read-back as it is charged:
    /// the read stops at what is left of the budget with an error, where it took longer than
    /// the budget itself after the script returned. The table is filled under a budget of its
    /// own, so that the read's budget is smaller than one walk of the chain on any machine
    /// (a walk costs about what the fill did).
    @Test func theReadBackOfAChainedTableStopsAtTheBudget() throws {
        let sandbox = try LuaSandbox()
        sandbox.arm(RunLimits(cpuTime: .seconds(10), memoryBytes: 8 << 20, deadline: .after(.seconds(20))))
        guard case .compiled(let chunk) = sandbox.compile("""
            function fill(t)
              local M = (1 << 13) - 1
              for i = 1, 8000 do t[i * M] = i end
            end
            """, chunkName: "chain.lua"), let env = sandbox.makeEnvironment(),
            let table = sandbox.makeValue(.table(LuaTable(pairs: []))) else {
            Issue.record("setup")
            return
        }
        #expect(sandbox.run(chunk, in: env) == .completed)
        let filling = currentThreadCPUTime()
        #expect(sandbox.call("fill", in: env, arguments: [table]) == .completed)
        let fill = currentThreadCPUTime() - filling
        sandbox.disarm()
        sandbox.arm(RunLimits(cpuTime: .milliseconds(20), memoryBytes: 8 << 20, deadline: .after(.seconds(20))))
        defer { sandbox.disarm() }
        let start = currentThreadCPUTime()
        let read = sandbox.read(table)
        let cpu = currentThreadCPUTime() - start
        guard case .failure(let error) = read else {
            Issue.record("the read-back finished, after \(cpu) (the fill took \(fill))")
            return
        }
        #expect(error.message.contains("took longer than the request's limits allow"), "\(error.message)")
        #expect(cpu < .milliseconds(60), "\(cpu)")
    }
}
