import CLuaShims
import CLuaShimsTesting
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
}
