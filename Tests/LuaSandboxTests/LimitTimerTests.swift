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
