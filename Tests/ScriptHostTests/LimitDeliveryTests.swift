import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

@Suite(.serialized) struct LimitDeliveryTests {
    @Test func memoryLimitDeliversTheBestAttempt() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              c.title = "attacked"
              local t = {} for i = 1, 1e8 do t[i] = i end
            end
            function bestAttempt(c, reason) c.body = "memory: " .. reason.kind end
            """, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 2 << 20, time: .seconds(5)))
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .memory)
        #expect(result.content.title == "attacked")
        #expect(result.content.body == "memory: memory")
        #expect(result.stats.memoryPeakBytes <= 2 << 20 + (1 << 20))
    }

    @Test func deadlineDeliversTheBestAttemptOnTime() async throws {
        let start = ContinuousClock.now
        let result = try await deliver("""
            function didReceive(r, c)
              c.title = "attacked"
              local x = 0
              while true do x = x + 1 end
            end
            function bestAttempt(c, reason) c.body = "late: " .. reason.kind end
            """, limits: ScriptLimits(cpuTime: .seconds(10), memoryBytes: 8 << 20, time: .milliseconds(300)))
        let took = ContinuousClock.now - start
        #expect(result.reason?.kind == .time)
        #expect(result.content.title == "attacked")
        #expect(result.content.body == "late: time")
        #expect(took < .milliseconds(300) + .milliseconds(600), "took \(took)")
    }

    @Test func completionAndDeadlineRaceDeliversOneConsistentResult() async throws {
        // A loop sized near the deadline: some runs complete, some are stopped; every call
        // returns one result and never a completed outcome with the best attempt's writes.
        for i in 0..<40 {
            let result = try await deliver("""
                function didReceive(r, c)
                  local t = os.clock()
                  while os.clock() - t < 0.03 do end
                  c.title = "done"
                end
                function bestAttempt(c, reason) c.body = "best" end
                """, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .milliseconds(25 + i % 10)))
            switch result.outcome {
            case .completed:
                #expect(result.content.title == "done" && result.content.body == "original")
            case .fallback:
                #expect(result.reason?.kind == .time)
                #expect(result.content.body == "best")
            }
        }
    }

    /// Lua whose last statement is one VM instruction that copies 32 MB (a concatenation of
    /// eight 4 MB strings): milliseconds of CPU that no hook and no charged C function sees.
    /// Only the check when the handler returns can notice it (or, rarely, a hook that fires in
    /// the two instructions after it), so either way the run ends as `cpu`.
    static let longCopy = """
        local s = string.rep("x", 1 << 22)
        local t = s .. s .. s .. s .. s .. s .. s .. s
        """

    /// Limits under which the copy runs past a 5 ms CPU budget without hitting memory.
    static let sortLimits = ScriptLimits(
        cpuTime: .milliseconds(5), memoryBytes: 64 << 20, time: .seconds(5), bestAttemptCPUTime: .milliseconds(5))

    @Test func theCPUBudgetIsCheckedWhenDidReceiveReturns() async throws {
        let result = try await deliver("""
            function didReceive(r, c)
              c.body = "sorted"
              \(Self.longCopy)
            end
            function bestAttempt(c, reason) c.subtitle = reason.kind end
            """, limits: Self.sortLimits)
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .cpu, "\(result.reason?.message ?? "completed")")
        #expect(result.content.body == "sorted")
        #expect(result.content.subtitle == "cpu")
    }

    @Test func theCPUBudgetIsCheckedWhenBestAttemptReturns() async throws {
        let host = ScriptHost()
        let result = try await deliver("""
            function didReceive(r, c) error("boom") end
            function bestAttempt(c, reason)
              c.subtitle = "sorted"
              \(Self.longCopy)
            end
            """, host: host, limits: Self.sortLimits)
        // The reason stays the one that ended didReceive; the content is delivered as it stands.
        #expect(result.reason?.kind == .error)
        #expect(result.content.subtitle == "sorted")
        #expect(result.logs.contains { $0.source == "host" && $0.level == .warn && $0.message.contains("more than its 5 ms of CPU") }, "\(result.logs)")
        // A state that went past a limit is not reused.
        #expect(host.runtime(for: "com.example.app").pool(host.services).idleCount == 0)
    }

    @Test func aStateStuckPastTheDeadlineIsGivenUpAndTheContentAsLeftIsDelivered() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true))
        // Another holder of the store's lock file: the script's store.set waits in flock(2),
        // where no check reaches it.
        let file = StateFile(directory: folder, app: "com.example.app", kind: "store")
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread { try? file.withLock { locked.signal(); release.wait() } }.start()
        locked.wait()
        defer { release.signal() }
        let start = ContinuousClock.now
        let result = try await deliver("""
            log.info("chunk ran")
            function didReceive(r, c)
              c.title = "waiting"
              store.set("k", 1)
              c.title = "stored"
            end
            function bestAttempt(c, reason) c.body = "best " .. reason.kind end
            """, host: host, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .milliseconds(200)))
        let took = ContinuousClock.now - start
        #expect(result.outcome == .fallback)
        #expect(result.reason == .init(kind: .time, message: "the deadline of 200 ms came before didReceive returned"))
        // The content as the script left it; bestAttempt needs the stuck state and is not
        // called, and the chunk is not run again anywhere.
        #expect(result.content.title == "waiting")
        #expect(result.content.body == "original")
        #expect(result.logs.filter { $0.message == "chunk ran" }.count == 1, "\(result.logs)")
        #expect(result.logs.contains { $0.source == "host" && $0.message.contains("didReceive did not stop at the deadline") && $0.message.contains("bestAttempt was not called") }, "\(result.logs)")
        #expect(took < .milliseconds(200) + .milliseconds(800), "took \(took)")
    }
}
