import FixtureTransports
import Foundation
import LuaSandbox
import NotificationModel
import Testing
@testable import ScriptHost

/// The system's deadline: a request expired from outside (``DeliverySession/expire()``, task
/// cancellation, `expiry`) stops its script wherever it is and delivers the best attempt within
/// `bestAttempt`'s budget + 50 ms.
@Suite(.serialized) struct ExpiryTests {
    static let picture = "https://cdn.example.com/slow.jpg"
    /// bestAttempt's wall-clock budget + 50 ms: what an expiry may take to deliver.
    static let bound = ScriptLimits.default.bestAttemptTime + .milliseconds(50)

    /// A script that downloads a picture that takes 5 s and says in the body what bestAttempt got.
    static let downloading = Script(name: "rules.lua", source: """
        function didReceive(r, c)
          c.title = "downloading"
          local f, err = download("\(picture)")
          c.title = "downloaded"
        end
        function bestAttempt(c, reason, r)
          c.body = "best " .. reason.kind .. ": " .. reason.message
          log.info("bestAttempt ran")
        end
        """)

    /// A host whose picture answer takes 5 s.
    func slowHost() throws -> (ScriptHost, MediaFolder) {
        let media = try MediaFolder()
        let file = try media.write("slow.jpg", MediaFolder.jpeg)
        let host = isolatedHost(media.url.appendingPathComponent("attachments"), media: [Self.picture: FixtureMedia(file: file, delayMs: 5000)])
        return (host, media)
    }

    func request(expiry: Duration? = nil) throws -> NotificationRequest {
        NotificationRequest(payload: try originalPayload(), app: "com.example.app", expiry: expiry)
    }

    func expectBestAttempt(_ result: DeliveryResult, message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.outcome == .fallback, sourceLocation: sourceLocation)
        #expect(result.reason == .init(kind: .time, message: message), sourceLocation: sourceLocation)
        #expect(result.content.title == "downloading", sourceLocation: sourceLocation)
        #expect(result.content.body == "best time: \(message)", sourceLocation: sourceLocation)
        #expect(result.logs.filter { $0.message == "bestAttempt ran" }.count == 1, "\(result.logs) \(result.stats)", sourceLocation: sourceLocation)
    }

    @Test func expireDuringADownloadDeliversTheBestAttemptAtOnce() async throws {
        let (host, media) = try slowHost()
        defer { media.remove() }
        let session = host.start(try request(), script: .script(Self.downloading))
        try await Task.sleep(for: .milliseconds(100))
        let expired = ContinuousClock.now
        session.expire()
        let result = await session.delivered()
        let took = ContinuousClock.now - expired
        #expect(took < Self.bound, "took \(took)")
        expectBestAttempt(result, message: "the system's time ran out (serviceExtensionTimeWillExpire) before didReceive returned")
        #expect(result.stats.deliveredMs < 100 + Self.bound.milliseconds, "\(result.stats)")
        print("expire() at 100 ms during a 5 s download: delivered \(took) after the call, at \(result.stats.deliveredMs) ms")
    }

    @Test func cancellingTheTaskThatAwaitsDeliverExpiresTheRequest() async throws {
        let (host, media) = try slowHost()
        defer { media.remove() }
        let request = try request()
        let task = Task { await host.deliver(request, script: .script(Self.downloading)) }
        try await Task.sleep(for: .milliseconds(100))
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.value
        let took = ContinuousClock.now - cancelled
        #expect(took < Self.bound, "took \(took)")
        expectBestAttempt(result, message: "the system's time ran out (serviceExtensionTimeWillExpire) before didReceive returned")
        print("task cancellation at 100 ms during a 5 s download: delivered \(took) after the cancel, at \(result.stats.deliveredMs) ms")
    }

    @Test func aRequestsExpiryEndsItAtThatTime() async throws {
        let (host, media) = try slowHost()
        defer { media.remove() }
        let result = await host.deliver(try request(expiry: .milliseconds(100)), script: .script(Self.downloading))
        expectBestAttempt(result, message: "the system's time ran out at 100 ms, before didReceive returned")
        #expect(result.stats.deliveredMs < 100 + Self.bound.milliseconds, "\(result.stats)")
        print("expiry of 100 ms during a 5 s download: delivered at \(result.stats.deliveredMs) ms")
    }

    @Test func theHostsDeadlineStillAppliesWhenItComesFirst() async throws {
        let (host, media) = try slowHost()
        defer { media.remove() }
        var request = try request(expiry: .seconds(3))
        request.limits = ScriptLimits(cpuTime: .milliseconds(200), memoryBytes: 8 << 20, time: .milliseconds(100))
        let result = await host.deliver(request, script: .script(Self.downloading))
        expectBestAttempt(result, message: "the deadline of 100 ms came before didReceive returned")
    }

    @Test func expiringInPureLuaAndInACountedCFunctionStopsTheScript() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let limits = ScriptLimits(cpuTime: .seconds(20), memoryBytes: 64 << 20, time: .seconds(20))
        for body in ["while true do end", #"local s = string.rep("a", 1 << 20) while true do s:find(".-.-b") end"#] {
            let script = Script(name: "rules.lua", source: """
                function didReceive(r, c) c.title = "looping" \(body) end
                function bestAttempt(c, reason) c.body = reason.message end
                """)
            let session = host.start(NotificationRequest(payload: try originalPayload(), app: "com.example.app", limits: limits), script: .script(script))
            try await Task.sleep(for: .milliseconds(100))
            let expired = ContinuousClock.now
            session.expire()
            let result = await session.delivered()
            let took = ContinuousClock.now - expired
            #expect(took < Self.bound, "\(body): took \(took)")
            #expect(result.content.title == "looping", "\(result.reason as Any) \(result.logs)")
            #expect(result.content.body == "the system's time ran out (serviceExtensionTimeWillExpire) before didReceive returned", "\(result.reason as Any) \(result.logs)")
        }
    }

    @Test func expiringAfterDeliveryOrTwiceReturnsTheDeliveredResultOnce() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let script = Script(name: "rules.lua", source: "function didReceive(r, c) c.title = 'done' end")
        let session = host.start(try request(), script: .script(script))
        let finished = await session.finished()
        session.expire()
        session.expire()
        let delivered = await session.delivered()
        let again = await session.finished()
        #expect(finished.outcome == .completed)
        #expect(delivered.outcome == .completed && again.outcome == .completed)
        #expect(delivered.content.title == "done" && again.content.title == "done")
        #expect(delivered.stats == again.stats)
    }

    @Test func expiringTwiceDuringDidReceiveIsOnce() async throws {
        let (host, media) = try slowHost()
        defer { media.remove() }
        let session = host.start(try request(), script: .script(Self.downloading))
        try await Task.sleep(for: .milliseconds(50))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { session.expire() } }
        }
        let result = await session.delivered()
        expectBestAttempt(result, message: "the system's time ran out (serviceExtensionTimeWillExpire) before didReceive returned")
        session.expire()
        #expect((await session.finished()).content.body == result.content.body)
    }

    @Test func expiringDuringBestAttemptLetsItFinishWithinItsBudget() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let started = DispatchSemaphore(value: 0)
        host.register(hook: "started") { _ in
            started.signal()
            return []
        }
        let script = Script(name: "rules.lua", source: """
            function didReceive(r, c) error("no") end
            function bestAttempt(c, reason)
              hooks.started()
              local until_ = os.clock() + 0.03
              while os.clock() < until_ do end
              c.body = "best " .. reason.kind
            end
            """)
        let session = host.start(try request(), script: .script(script))
        // Expired once bestAttempt runs.
        #expect(await Task.detached { started.wait(timeout: .now() + 5) }.value == .success)
        session.expire()
        let result = await session.delivered()
        #expect(result.reason?.kind == .error)
        #expect(result.content.body == "best error")
        #expect(!result.logs.contains { $0.message.contains("bestAttempt was stopped") }, "\(result.logs)")
    }

    @Test func expiringARequestWaitingForALuaThreadAnswersAtOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = LuaThreadPool(maxThreads: 1)
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true), executor: SandboxExecutor(pool: pool))
        let release = StuckJobTests.holdStoreLock(in: folder)
        defer { release() }
        let waiting = Script(name: "rules.lua", source: "function didReceive(r, c) store.set('k', 1) end")
        let limits = ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: .seconds(2))
        let holder = host.start(NotificationRequest(payload: try originalPayload(), app: "com.example.app", limits: limits), script: .script(waiting))
        try await Task.sleep(for: .milliseconds(100))
        let queued = host.start(
            NotificationRequest(payload: try originalPayload(), app: "com.example.other", limits: limits),
            script: .script(Script(name: "other.lua", source: "function didReceive(r, c) c.title = 'ran' end")))
        try await Task.sleep(for: .milliseconds(100))
        let expired = ContinuousClock.now
        queued.expire()
        let result = await queued.delivered()
        #expect(ContinuousClock.now - expired < .milliseconds(50))
        #expect(result.reason == .init(kind: .time, message: "the system's time ran out (serviceExtensionTimeWillExpire) before the script started; it was not run"))
        #expect(result.content.title == "original")
        holder.expire()
        _ = await holder.finished()
    }
}
