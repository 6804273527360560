import CLuaSandbox
import CLuaSandboxTesting
import Synchronization
import Testing
@testable import LuaSandbox

/// The limits cost nothing until they trip: no hook is set while a run is within them.
@Suite(.serialized) struct LimitTimerTests {
    @Test func noHookRunsWhileARunIsWithinItsLimits() throws {
        let sandbox = try LuaSandbox()
        let seen = Mutex<[Int32]>([])
        sandbox.register("hooked") { _ in
            seen.withLock { $0.append(pss_testing_hooked(sandbox.context)) }
            return .none
        }
        let status = runScript("""
            for i = 1, 100000 do end
            hooked()
            coroutine.wrap(function() for i = 1, 100000 do end hooked() end)()
            """, in: sandbox, limits: RunLimits(cpuTime: .seconds(5), memoryBytes: 8 << 20, deadline: .after(.seconds(10))))
        #expect(status == .completed)
        #expect(seen.withLock { $0 } == [0, 0])
    }

    @Test func theDeadlineTimerStopsALoopInACoroutineOnTime() async throws {
        let sandbox = try LuaSandbox()
        let start = Deadline.now()
        // The executor's own deadline is later: only the run's timer can stop the loop in time.
        let outcome = await SandboxExecutor().run(sandbox, deadline: .after(.seconds(2))) { sandbox in
            runScript("coroutine.wrap(function() while true do end end)()", in: sandbox,
                      limits: RunLimits(cpuTime: .seconds(10), memoryBytes: 8 << 20, deadline: .after(.milliseconds(100))))
        }
        let took = (Deadline.now().nanoseconds - start.nanoseconds) / 1_000_000
        guard case .finished(let status) = outcome else {
            Issue.record("the state was abandoned")
            return
        }
        #expect(status == .limit(.time))
        #expect(took >= 100 && took < 160, "took \(took) ms")
    }

    /// The timers are left set when a run ends and set again only when a run needs them
    /// earlier: a later run with later limits meets the earlier run's timers, which must not
    /// stop it, and its own limit still stops it on time.
    @Test func aTimerLeftByAnEarlierRunNeitherStopsALaterOneEarlyNorLetsItRunOn() async throws {
        let sandbox = try LuaSandbox()
        let start = Deadline.now()
        sandbox.register("elapsedMs") { _ in
            .values([.integer((Deadline.now().nanoseconds - start.nanoseconds) / 1_000_000)])
        }
        let outcome = await SandboxExecutor().run(sandbox, deadline: .after(.seconds(5))) { sandbox in
            // Both timers set 20 ms ahead, and left so.
            let first = runScript("local x = 1", in: sandbox,
                                  limits: RunLimits(cpuTime: .milliseconds(20), memoryBytes: 8 << 20, deadline: .after(.milliseconds(20))))
            // 150 ms of CPU and wall under limits of 2 s: both earlier timers come during it.
            let second = runScript("""
                local from = elapsedMs()
                while elapsedMs() - from < 150 do for i = 1, 1000 do end end
                """, in: sandbox, limits: RunLimits(cpuTime: .seconds(2), memoryBytes: 8 << 20, deadline: .after(.seconds(2))))
            // A budget of 50 ms from a timer set 2 s ahead: it is set earlier, and stops the loop.
            let budgetStart = Deadline.now()
            let third = runScript("while true do end", in: sandbox,
                                  limits: RunLimits(cpuTime: .milliseconds(50), memoryBytes: 8 << 20, deadline: .after(.seconds(3))))
            return (first, second, third, (Deadline.now().nanoseconds - budgetStart.nanoseconds) / 1_000_000)
        }
        guard case .finished(let (first, second, third, tookMs)) = outcome else {
            Issue.record("the state was abandoned")
            return
        }
        #expect(first == .completed)
        #expect(second == .completed)
        #expect(third == .limit(.cpu))
        #expect(tookMs >= 50 && tookMs < 400, "took \(tookMs) ms")
    }

    @Test func theBackendIsTheOneTheBuildChose() {
        #if PortableLimits || !os(Linux)
        #expect(limitTimersBackend == "portable")
        #else
        #expect(limitTimersBackend == "linux")
        #endif
    }

    /// Coroutines made, run and collected by the thousand while the limit timers set the hook
    /// on the running one from elsewhere (the cancel, then its repeats): the run ends at the
    /// cancel, and nothing the timers touch was freed under them.
    @Test func aCancelAmongCoroutinesThatComeAndGoStopsTheRun() async throws {
        for _ in 0..<5 {
            let sandbox = try LuaSandbox()
            let start = Deadline.now()
            let canceller = Task.detached {
                try? await Task.sleep(for: .milliseconds(30))
                sandbox.cancel()
            }
            let outcome = await SandboxExecutor().run(sandbox, deadline: .after(.seconds(2))) { sandbox in
                runScript("""
                    local n = 0
                    while true do
                      local co = coroutine.wrap(function(a) local t = {a} coroutine.yield(t) return n end)
                      co(n) co()
                      n = n + 1
                      if n % 100 == 0 then local g = {} for i = 1, 200 do g[i] = {i} end end
                    end
                    """, in: sandbox, limits: RunLimits(cpuTime: .seconds(10), memoryBytes: 8 << 20, deadline: .after(.seconds(5))))
            }
            await canceller.value
            let took = (Deadline.now().nanoseconds - start.nanoseconds) / 1_000_000
            guard case .finished(let status) = outcome else {
                Issue.record("the state was abandoned")
                return
            }
            #expect(status == .limit(.time))
            #expect(took < 200, "took \(took) ms")
        }
    }
}
