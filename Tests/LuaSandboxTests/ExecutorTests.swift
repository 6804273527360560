import Foundation
import Synchronization
import Testing
@testable import LuaSandbox

@Suite(.serialized) struct ExecutorTests {
    @Test func jobsRunOnBigStackThreads() async throws {
        let sandbox = try LuaSandbox()
        let executor = SandboxExecutor()
        let outcome = await executor.run(sandbox, deadline: .after(.seconds(5))) { sandbox in
            // gsub recursion nests deep C frames: a clean error on a big stack
            runScript("local function f() string.gsub('a', '.', f) end f()", in: sandbox)
        }
        guard case .finished(let status) = outcome, case .error(let message) = status else {
            Issue.record("unexpected \(outcome)")
            return
        }
        #expect(message.contains("stack overflow"))
    }

    @Test func stuckInHostCodeTheCallerStillGetsItsAnswerOnTime() async throws {
        let sandbox = try LuaSandbox()
        sandbox.register("stuck") { _ in
            Thread.sleep(forTimeInterval: 2)  // a C call no hook can interrupt
            return .none
        }
        let executor = SandboxExecutor()
        let start = Deadline.now()
        let outcome = await executor.run(sandbox, deadline: .after(.milliseconds(200)), grace: .milliseconds(50)) { sandbox in
            runScript("stuck() while true do end", in: sandbox,
                      limits: RunLimits(cpuTime: .seconds(10), memoryBytes: 8 << 20, deadline: .after(.milliseconds(200))))
        }
        let waited = (Deadline.now().nanoseconds - start.nanoseconds) / 1_000_000
        guard case .abandoned = outcome else {
            Issue.record("expected abandonment, got \(outcome)")
            return
        }
        #expect(waited >= 240 && waited < 450, "waited \(waited) ms")
        #expect(sandbox.isAbandoned)
    }

    @Test func aScriptBlockedInAHostCallIsCancelledAtTheDeadline() async throws {
        let sandbox = try LuaSandbox()
        let cancelled = Mutex(false)
        sandbox.register("wait") { _ in
            // a download that honours cancellation
            for _ in 0..<200 {
                if cancelled.withLock({ $0 }) { return .kill(.time) }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return .none
        }
        let outcome = await SandboxExecutor().run(
            sandbox, deadline: .after(.milliseconds(100)), onDeadline: { cancelled.withLock { $0 = true } }
        ) { sandbox in
            runScript("pcall(wait) while true do end", in: sandbox,
                      limits: RunLimits(cpuTime: .seconds(10), memoryBytes: 8 << 20, deadline: .after(.seconds(10))))
        }
        guard case .finished(let status) = outcome else {
            Issue.record("abandoned")
            return
        }
        #expect(status == .limit(.time))
        #expect(!sandbox.isAbandoned)
    }

    @Test func aJobThatReturnsAsItsDeadlineComesLeavesNoTimerBehind() async throws {
        // The job returns the moment its deadline action has cancelled it, racing the action,
        // which goes on to schedule the grace timer: that timer must not outlive the job.
        let watchdog = DeadlineWatchdog()
        let executor = SandboxExecutor(pool: .shared, watchdog: watchdog)
        for _ in 0..<300 {
            let sandbox = try LuaSandbox()
            let release = DispatchSemaphore(value: 0)
            let outcome = await executor.run(
                sandbox, deadline: .after(.microseconds(200)), grace: .seconds(60), onDeadline: { release.signal() }
            ) { _ in release.wait() }
            switch outcome {
            case .finished: continue
            // A job no thread took by its deadline never runs (nor waits for the action).
            case .notStarted: continue
            case .abandoned:
                Issue.record("abandoned")
                return
            }
        }
        // The job cancels its timers just after it hands its result over.
        let settled = Deadline.after(.seconds(1))
        while watchdog.scheduledCount > 0, !settled.hasPassed { try await Task.sleep(for: .milliseconds(5)) }
        #expect(watchdog.scheduledCount == 0)
    }

    @Test func completionAndDeadlineRacesDeliverExactlyOnce() async throws {
        let executor = SandboxExecutor()
        var finished = 0
        var abandoned = 0
        var notStarted = 0
        for i in 0..<200 {
            let sandbox = try LuaSandbox()
            let sleep = Double(i % 5) * 0.001
            let outcome = await executor.run(sandbox, deadline: .after(.milliseconds(2)), grace: .milliseconds(1)) { _ in
                Thread.sleep(forTimeInterval: sleep)
                return i
            }
            switch outcome {
            case .finished(let value):
                #expect(value == i)
                finished += 1
            case .abandoned:
                #expect(sandbox.isAbandoned)
                abandoned += 1
            case .notStarted:
                // The deadline came before a thread took the job: it never touched the sandbox.
                #expect(!sandbox.isAbandoned)
                notStarted += 1
            }
        }
        #expect(finished + abandoned + notStarted == 200)
    }
}
