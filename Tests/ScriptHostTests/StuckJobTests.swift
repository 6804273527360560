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

    /// Holds both threads of a two-thread pool with requests of `app` whose store call waits for
    /// a lock held elsewhere; `time` is their deadline.
    static func holdBothThreads(_ host: ScriptHost, app: String = "com.example.app", time: Duration) async throws -> [DeliverySession] {
        var sessions: [DeliverySession] = []
        let holding = Script(name: "rules.lua", source: "function didReceive(r, c) store.set('k', 1) end")
        for _ in 0..<2 {
            let limits = ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: time)
            sessions.append(host.start(NotificationRequest(payload: try originalPayload(), app: app, limits: limits), script: .script(holding)))
        }
        // until both have a thread
        try await Task.sleep(for: .milliseconds(100))
        return sessions
    }

    @Test func aJobQueuedPastItsDeadlineIsAnsweredThenAndNeverRuns() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = LuaThreadPool(maxThreads: 2)
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true), executor: SandboxExecutor(pool: pool))
        let release = Self.holdStoreLock(in: folder)
        let holders = try await Self.holdBothThreads(host, time: .seconds(3))
        #expect(!pool.isHeldByStuckJobs)

        let other = "com.example.other"
        let queued = Script(name: "other.lua", source: """
            store.set("ran", true)
            function didReceive(r, c) c.title = "ran" end
            """)
        let start = ContinuousClock.now
        let result = await host.deliver(
            NotificationRequest(payload: try originalPayload(), app: other, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .milliseconds(200))),
            script: .script(queued))
        let took = ContinuousClock.now - start
        #expect(took < .milliseconds(200) + .milliseconds(100), "took \(took)")
        #expect(result.outcome == .fallback)
        #expect(result.reason == .init(kind: .time, message: "the deadline of 200 ms came before a Lua thread was free; the script was not run"))
        #expect(result.content.title == "original")
        // It never ran and cost nothing: its sandbox is back in the pool, unused.
        let sandboxes = host.runtime(for: other).pool(host.services)
        #expect(sandboxes.idleCount == 1)

        release()
        for holder in holders { _ = await holder.finished() }
        let settled = Deadline.after(.seconds(5))
        while pool.stuckCount > 0, !settled.hasPassed { try await Task.sleep(for: .milliseconds(5)) }
        // The queued chunk did not run later either.
        let check = await host.deliver(
            NotificationRequest(payload: try originalPayload(), app: other),
            script: .script(Script(name: "check.lua", source: "function didReceive(r, c) c.title = tostring(store.get('ran')) end")))
        #expect(check.content.title == "nil")
    }

    @Test func whenEveryThreadIsHeldANewAppOfADirectoryFallsBackAtOnceAndServiceResumes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = LuaThreadPool(maxThreads: 2)
        let executor = SandboxExecutor(pool: pool)
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true), executor: executor)
        let scripts = folder.appendingPathComponent("scripts", isDirectory: true)
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        for app in ["com.example.seen", "com.example.new"] {
            try Data("function didReceive(r, c) c.title = 'ran' end".utf8).write(to: scripts.appendingPathComponent("\(app).lua"))
        }
        // Settled files: a lookup of the seen app answers without reading it again.
        try await Task.sleep(for: .milliseconds(100))
        let directory = ScriptDirectory(scripts, memoryLimit: 8 << 20, executor: executor, report: { _ in })
        func request(_ app: String) throws -> NotificationRequest {
            NotificationRequest(payload: try originalPayload(), app: app, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .seconds(10)))
        }
        let seen = await host.deliver(try request("com.example.seen"), from: directory)
        #expect(seen.content.title == "ran")

        let release = Self.holdStoreLock(in: folder)
        let holders = try await Self.holdBothThreads(host, time: .milliseconds(150))
        for holder in holders { #expect((await holder.delivered()).reason?.kind == .time) }
        #expect(pool.isHeldByStuckJobs)

        for (app, message) in [
            ("com.example.new", "the script was not run: com.example.new.lua must be checked first, and all 2 Lua threads are held by scripts that did not stop at their deadlines"),
            ("com.example.seen", "the script was not run: all 2 Lua threads are held by scripts that did not stop at their deadlines"),
        ] {
            let start = ContinuousClock.now
            let refused = await host.deliver(try request(app), from: directory)
            #expect(ContinuousClock.now - start < .milliseconds(500), "\(app)")
            #expect(refused.outcome == .fallback)
            #expect(refused.reason == .init(kind: .time, message: message))
            #expect(refused.content.title == "original")
        }

        release()
        let settled = Deadline.after(.seconds(5))
        while pool.stuckCount > 0, !settled.hasPassed { try await Task.sleep(for: .milliseconds(5)) }
        #expect(pool.stuckCount == 0)
        for app in ["com.example.new", "com.example.seen"] {
            let served = await host.deliver(try request(app), from: directory)
            #expect(served.outcome == .completed, "\(app): \(String(describing: served.reason))")
            #expect(served.content.title == "ran")
        }
    }
}
