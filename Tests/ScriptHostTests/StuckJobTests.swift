import Foundation
import LuaSandbox
import NotificationModel
import Testing
@testable import ScriptHost

/// Requests whose job gets stuck where no check reaches (a store call waiting for a lock held
/// elsewhere): what is delivered, what it cost, and what happens once every thread is stuck.
@Suite(.serialized) struct StuckJobTests {
    /// Holds the app's store lock from another thread until the returned closure is called.
    static func holdStoreLock(in folder: URL) -> @Sendable () -> Void {
        let file = StateFile(directory: folder, app: "com.example.app", kind: "store")
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread { try? file.withLock { locked.signal(); release.wait() } }.start()
        locked.wait()
        return { release.signal() }
    }

    @Test func aChunkStuckAtTopLevelIsALoadFailureAndRunsOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true))
        let release = Self.holdStoreLock(in: folder)
        defer { release() }
        let result = try await deliver("""
            function bestAttempt(c, reason) c.body = "best attempt" end
            log.info("chunk ran")
            local x = 0 for i = 1, 300000 do x = x + i end
            store.set("k", 1)
            function didReceive(r, c) c.title = "ran" end
            """, host: host, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .milliseconds(200)))
        #expect(result.outcome == .fallback)
        #expect(result.reason == .init(kind: .load, message: "rules.lua did not load: the deadline of 200 ms came while its chunk ran"))
        #expect(result.content.title == "original")
        #expect(result.content.body == "original")
        #expect(result.logs.filter { $0.message == "chunk ran" }.count == 1, "\(result.logs)")
        #expect(result.logs.contains { $0.source == "host" && $0.message.contains("abandoned") }, "\(result.logs)")
        // The stuck thread's CPU time so far, read from outside it.
        #expect(result.stats.cpuMs > 0)
    }

    @Test func whenEveryThreadIsStuckNewRequestsFallBackAtOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = LuaThreadPool(maxThreads: 1)
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true), executor: SandboxExecutor(pool: pool))
        let source = """
            function didReceive(r, c)
              if r.content.userInfo.stuck then store.set("k", 1) end
              c.title = "ran"
            end
            """
        let limits = ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .milliseconds(150))
        let release = Self.holdStoreLock(in: folder)
        let stuck = try await deliver(source, payload: try originalPayload(extra: #", "stuck": true"#), host: host, limits: limits)
        #expect(stuck.reason?.kind == .time)
        #expect(pool.isHeldByStuckJobs)

        // Refused at once: with a deadline 10 s away, well before it, not by waiting for it.
        let start = ContinuousClock.now
        let refused = try await deliver(source, host: host, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .seconds(10)))
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(refused.outcome == .fallback)
        #expect(refused.reason == .init(kind: .time, message: "the script was not run: all 1 Lua threads are held by scripts that did not stop at their deadlines"))
        #expect(refused.content.title == "original")

        release()
        let settled = Deadline.after(.seconds(5))
        while pool.stuckCount > 0, !settled.hasPassed { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pool.stuckCount == 0)
        let served = try await deliver(source, host: host, limits: limits)
        #expect(served.outcome == .completed)
        #expect(served.content.title == "ran")
    }
}
