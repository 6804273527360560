#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import LuaSandbox

@Suite(.serialized) struct LimitTests {
    @Test func memoryCapIsExactToAFewKilobytes() throws {
        let limit = 1 << 20
        let sandbox = try LuaSandbox(memoryLimit: limit)
        sandbox.resetMemoryPeak()
        let status = runScript("""
            local head
            local i = 0
            while true do i = i + 1 head = {head, i} end
            """, in: sandbox, limits: RunLimits(cpuTime: .seconds(2), memoryBytes: limit, deadline: .after(.seconds(5))))
        #expect(status == .limit(.memory))
        #expect(sandbox.memoryPeak <= limit)
        #expect(sandbox.memoryPeak >= limit - 4096)
    }

    @Test func garbageIsCollectedBeforeTheMemoryLimitKills() throws {
        // Live data over half the limit: Lua's collector would only start its next cycle past
        // the limit, so the first refused allocation comes while garbage could make room. Lua
        // then collects and asks again; only a second refusal is the kill.
        let sandbox = try LuaSandbox(memoryLimit: 2 << 20)
        let status = runScript("""
            local keep = {} for i = 1, 9000 do keep[i] = string.rep('k', 100) .. i end
            local n = 0 for i = 1, 200000 do local pair = {i, i} n = n + #pair end
            assert(n == 400000 and #keep == 9000)
            """, in: sandbox, limits: RunLimits(cpuTime: .seconds(2), memoryBytes: 2 << 20, deadline: .after(.seconds(5))))
        #expect(status == .completed)
        #expect(sandbox.memoryPeak <= 2 << 20)
    }

    @Test func aGuardedFunctionCollectsGarbageBeforeItRefusesASize() throws {
        // string.rep checks that its result fits before it builds it; garbage does not count.
        let sandbox = try LuaSandbox(memoryLimit: 4 << 20)
        let status = runScript("""
            local live = string.rep('l', 1500000)
            local garbage = live .. '!'
            garbage = nil
            local r = string.rep('r', 1200000)
            assert(#r == 1200000 and #live == 1500000)
            """, in: sandbox, limits: RunLimits(cpuTime: .seconds(2), memoryBytes: 4 << 20, deadline: .after(.seconds(5))))
        #expect(status == .completed)
        #expect(sandbox.memoryPeak <= 4 << 20)
    }

    @Test func memoryKillIsFinalForPcall() throws {
        let sandbox = try LuaSandbox()
        let status = runScript("""
            local n = 0
            while true do
              pcall(function() local t = {} for i = 1, 1e7 do t[i] = i end end)
              n = n + 1
            end
            """, in: sandbox, limits: RunLimits(cpuTime: .seconds(2), memoryBytes: 2 << 20, deadline: .after(.seconds(5))))
        #expect(status == .limit(.memory))
    }

    @Test func cpuBudgetStopsATightLoopOnTime() throws {
        let sandbox = try LuaSandbox()
        let before = currentThreadCPUTime()
        let status = runScript("while true do end", in: sandbox,
                               limits: RunLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, deadline: .after(.seconds(5))))
        let used = (currentThreadCPUTime() - before).milliseconds
        #expect(status == .limit(.cpu))
        #expect(used >= 100 && used <= 130, "used \(used) ms")
    }

    /// Disarming leaves a run's timers set; when they come after the run, they must reach no
    /// later run: not the next one on the thread, nor work done between runs.
    @Test func theTimersOfARunThatEndedStopNoLaterRun() throws {
        let sandbox = try LuaSandbox()
        func short() -> RunLimits { RunLimits(cpuTime: .milliseconds(20), memoryBytes: 8 << 20, deadline: .after(.milliseconds(40))) }
        #expect(runScript("local x = 1", in: sandbox, limits: short()) == .completed)
        // past both: CPU spent outside any run, then wall time
        let spinUntil = currentThreadCPUTime() + .milliseconds(60)
        while currentThreadCPUTime() < spinUntil {}
        usleep(60_000)
        let roomy = RunLimits(cpuTime: .seconds(2), memoryBytes: 8 << 20, deadline: .after(.seconds(5)))
        #expect(runScript("local n = 0 for i = 1, 3000000 do n = n + i end", in: sandbox, limits: roomy) == .completed)
        // and a run without a deadline after a run with one
        #expect(runScript("local x = 1", in: sandbox, limits: short()) == .completed)
        usleep(60_000)
        #expect(runScript("local n = 0 for i = 1, 3000000 do n = n + i end", in: sandbox,
                          limits: RunLimits(cpuTime: .seconds(2), memoryBytes: 8 << 20, deadline: nil)) == .completed)
    }

    @Test func deadlineStopsALoopAsTime() throws {
        let sandbox = try LuaSandbox()
        let start = Deadline.now()
        let status = runScript("while true do end", in: sandbox,
                               limits: RunLimits(cpuTime: nil, memoryBytes: 8 << 20, deadline: .after(.milliseconds(150))))
        let wall = (Deadline.now().nanoseconds - start.nanoseconds) / 1_000_000
        #expect(status == .limit(.time))
        #expect(wall >= 150 && wall < 250, "took \(wall) ms")
    }

    @Test func killIsFinalEverywhere() throws {
        let cases = [
            "while true do pcall(function() while true do end end) end",
            "xpcall(function() while true do end end, function() while true do end end)",
            "local co = coroutine.wrap(function() local g <close> = setmetatable({}, {__close = function() while true do end end}) while true do end end) co()",
            "while true do local co = coroutine.create(function() while true do end end) coroutine.resume(co) end",
            "while true do load(function() while true do end end) end",
            "while true do pcall(string.rep, 'x', 1e9) end",
        ]
        for source in cases {
            let sandbox = try LuaSandbox()
            let status = runScript(source, in: sandbox,
                                   limits: RunLimits(cpuTime: .milliseconds(50), memoryBytes: 8 << 20, deadline: .after(.seconds(3))))
            guard case .limit(let kind) = status else {
                Issue.record("\(source) ended \(status)")
                continue
            }
            #expect(kind == .cpu || kind == .memory, "\(source)")
        }
    }

    @Test func tableInsertAndRemoveChargeTheirShifts() async throws {
        // insert and remove shift elements in C as far as #t says, and __len can say
        // math.maxinteger: without a charge per element that loop never ends.
        let cases = [
            "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end}) table.insert(t, 1, 'x')",
            "local t = setmetatable({}, {__len = function() return math.maxinteger - 1 end}) table.remove(t, 1)",
        ]
        for source in cases {
            let sandbox = try LuaSandbox()
            let outcome = await SandboxExecutor().run(sandbox, deadline: .after(.seconds(2))) { sandbox in
                runScript(source, in: sandbox,
                          limits: RunLimits(cpuTime: .milliseconds(50), memoryBytes: 8 << 20, deadline: .after(.seconds(2))))
            }
            guard case .finished(let status) = outcome else {
                Issue.record("\(source): the state was abandoned")
                continue
            }
            #expect(status == .limit(.cpu), "\(source)")
        }
    }

    @Test func osDateOfAHugeFormatIsCharged() throws {
        // One stock call converts the whole format: a megabyte of '%x' is about 100 ms of C.
        let sandbox = try LuaSandbox()
        let before = currentThreadCPUTime()
        let status = runScript("""
            local format = string.rep('%x', 500000)
            while true do os.date(format, 0) end
            """, in: sandbox, limits: RunLimits(cpuTime: .milliseconds(30), memoryBytes: 8 << 20, deadline: .after(.seconds(5))))
        let used = (currentThreadCPUTime() - before).milliseconds
        #expect(status == .limit(.cpu))
        #expect(used < 45, "used \(used) ms")
    }

    @Test func aCoroutineKilledInOneRunIsNotResetInTheNext() async throws {
        // bestAttempt runs in the environment of the run the kill stopped. A wrapped coroutine
        // killed there still has its __close pending, and the kill left its hooks off: a reset
        // on the next call would run that handler with no check at all.
        let sandbox = try LuaSandbox()
        let outcome = await SandboxExecutor().run(sandbox, deadline: .after(.seconds(2))) { sandbox -> [RunStatus] in
            guard case .compiled(let chunk) = sandbox.compile("""
                function didReceive()
                  F = coroutine.wrap(function()
                    local guard <close> = setmetatable({}, {__close = function() while true do end end})
                    while true do end
                  end)
                  F()
                end
                function bestAttempt() F() end
                """, chunkName: "wrap.lua"), let env = sandbox.makeEnvironment() else { return [] }
            let limits = RunLimits(cpuTime: .milliseconds(30), memoryBytes: 8 << 20, deadline: .after(.seconds(2)))
            sandbox.arm(limits)
            defer { sandbox.disarm() }
            let main = sandbox.run(chunk, in: env) == .completed ? sandbox.call("didReceive", in: env, arguments: []) : .missing
            sandbox.arm(limits)
            return [main, sandbox.call("bestAttempt", in: env, arguments: [])]
        }
        guard case .finished(let statuses) = outcome else {
            Issue.record("the state was abandoned")
            return
        }
        #expect(statuses == [.limit(.cpu), .error("wrap.lua:8: cannot resume dead coroutine")])
    }

    @Test func loadOfAHugeChunkIsCharged() throws {
        // Parsing is C: three megabytes of source are about 35 ms in one call, however the
        // source comes (a string, or one piece from a reader function).
        for source in [
            "local src = string.rep(';', 3e6) while true do load(src) end",
            "local src = string.rep(';', 3e6) while true do local done = false load(function() if not done then done = true return src end end) end",
        ] {
            let sandbox = try LuaSandbox()
            let before = currentThreadCPUTime()
            let status = runScript(source, in: sandbox,
                                   limits: RunLimits(cpuTime: .milliseconds(30), memoryBytes: 8 << 20, deadline: .after(.seconds(5))))
            let used = (currentThreadCPUTime() - before).milliseconds
            #expect(status == .limit(.cpu))
            #expect(used < 40, "used \(used) ms: \(source)")
        }
    }

    @Test func theParsersQuadraticCasesStopAtTheBudget() throws {
        // `1 or 1 or ...` concatenates jump lists: 70,000 terms took 6.9 s in one C call. The
        // parser now reads every chunk in charged pieces, the script's own as well as load's.
        let chain = "return " + String(repeating: "1 or ", count: 70_000) + "1"
        let sandbox = try LuaSandbox()
        sandbox.arm(RunLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, deadline: .after(.seconds(10))))
        let before = currentThreadCPUTime()
        let compiled = sandbox.compile(chain, chunkName: "chain.lua")
        let used = (currentThreadCPUTime() - before).milliseconds
        sandbox.disarm()
        guard case .failed(let status) = compiled else {
            Issue.record("the chain compiled")
            return
        }
        #expect(status == .limit(.cpu))
        #expect(used < 130, "used \(used) ms")
        let loader = try LuaSandbox()
        let start = currentThreadCPUTime()
        let loaded = runScript("local src = 'return ' .. ('1 or '):rep(70000) .. '1' pcall(load, src)", in: loader,
                               limits: RunLimits(cpuTime: .milliseconds(100), memoryBytes: 8 << 20, deadline: .after(.seconds(10))))
        let loadUsed = (currentThreadCPUTime() - start).milliseconds
        #expect(loaded == .limit(.cpu))
        #expect(loadUsed < 130, "used \(loadUsed) ms")
    }

    @Test func aLoopOfCostlyCallsEndsWithinACallOfTheBudget() throws {
        // The count hook runs once per thousand instructions: a loop of C calls that each
        // cost milliseconds made hundreds of them between two checks. Functions whose work
        // grows with their arguments are charged for it first, and host calls are followed by
        // a look at the clocks.
        let sandbox = try LuaSandbox()
        sandbox.register("busy") { _ in
            let start = currentThreadCPUTime()
            while currentThreadCPUTime() - start < .milliseconds(3) {}
            return .none
        }
        let cases = [
            "local t = {} for i = 1, 5e4 do t[i] = (i * 7919) % 1000003 end while true do table.sort(t) end",
            "local s = string.rep('a', 2e6) while true do local u = s:upper() end",
            "local s = string.rep('a', 4e6) while true do local n = utf8.len(s) end",
            "local s = string.rep(' ', 3e6) .. '1' while true do local n = tonumber(s) end",
            "local t = {} while true do local n = select('#', table.unpack(t, 1, 5e4)) end",
            "while true do busy() end",
        ]
        for source in cases {
            let before = currentThreadCPUTime()
            let status = runScript(source, in: sandbox,
                                   limits: RunLimits(cpuTime: .milliseconds(30), memoryBytes: 8 << 20, deadline: .after(.seconds(10))))
            let used = (currentThreadCPUTime() - before).milliseconds
            #expect(status == .limit(.cpu), "\(source)")
            #expect(used < 60, "used \(used) ms: \(source)")
        }
    }

    @Test func rearmingClearsATripAndPeakTracks() throws {
        let sandbox = try LuaSandbox()
        #expect(runScript("while true do end", in: sandbox,
                          limits: RunLimits(cpuTime: .milliseconds(20), memoryBytes: 8 << 20, deadline: nil)) == .limit(.cpu))
        #expect(sandbox.hasHitLimit)
        #expect(runScript("local x = 1", in: sandbox) == .completed)
        #expect(sandbox.trippedLimit == nil)
    }

    @Test func poolDiscardsAStateThatHitALimit() throws {
        let pool = SandboxPool<LuaSandbox> { () throws(SandboxError) in try LuaSandbox() }
        let first = try pool.checkOut()
        #expect(runScript("local x = 1", in: first) == .completed)
        pool.checkIn(first)
        let again = try pool.checkOut()
        #expect(again === first)
        #expect(runScript("while true do end", in: again,
                          limits: RunLimits(cpuTime: .milliseconds(10), memoryBytes: 8 << 20, deadline: nil)) == .limit(.cpu))
        pool.checkIn(again)
        #expect(pool.idleCount == 0)
        let fresh = try pool.checkOut()
        #expect(fresh !== first)
        #expect(pool.madeCount == 2)
    }
}
