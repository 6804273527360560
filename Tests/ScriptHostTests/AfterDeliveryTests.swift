import FixtureTransports
import Foundation
import LuaSandbox
import NotificationModel
import Testing
@testable import ScriptHost

/// `afterDelivery(request, content)`: it runs once the content was handed over, in the same
/// state, and what it does never changes nor delays what was delivered.
@Suite(.serialized) struct AfterDeliveryTests {
    static let receipt = "https://receipts.example.com/r"

    func request(limits: ScriptLimits? = nil) throws -> NotificationRequest {
        NotificationRequest(payload: try originalPayload(), app: "com.example.app", limits: limits, allowPostHosts: ["receipts.example.com"])
    }

    func script(_ source: String) -> ScriptLookup { .script(Script(name: "rules.lua", source: source)) }

    static let receipting = """
        function didReceive(r, c) c.title = "shown" end
        function afterDelivery(r, c)
          local status, body = http.post("\(receipt)", json.encode({id = r.identifier, title = c.title}))
          log.info("receipt " .. tostring(status))
        end
        """

    @Test func aSlowReceiptAfterDeliveryDoesNotHoldTheContentBack() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let session = host.start(try request(), script: script(Self.receipting), answers: answers(http: [Self.receipt: PostAnswer(status: 202, delayMs: 2000)]))
        let delivered = await session.delivered()
        #expect(delivered.outcome == .completed)
        #expect(delivered.content.title == "shown")
        #expect(delivered.stats.deliveredMs < 100, "\(delivered.stats)")
        let finished = await session.finished()
        #expect(finished.outcome == .completed)
        #expect(finished.content.title == "shown")
        #expect(finished.stats.deliveredMs == delivered.stats.deliveredMs)
        #expect(finished.stats.wallMs >= 2000, "\(finished.stats)")
        #expect(finished.posts.count == 1)
        #expect(finished.posts.first?.after == true)
        #expect(finished.posts.first?.url == Self.receipt)
        #expect(finished.logs.contains { $0.message == "receipt 202" }, "\(finished.logs)")
        #expect(finished.jsonValue.objectValue?["posts"]?.arrayValue?.first?.objectValue?["after"] == .bool(true))
    }

    @Test func aReceiptToARealServerIsSentAfterDelivery() async throws {
        let server = try PostTestServer { _ in PostTestAnswer(status: 200, delayMs: 2000) }
        let host = ScriptHost(configuration: HostConfiguration(allowPostHosts: ["receipts.example.com"]), network: server.transport)
        let session = host.start(
            NotificationRequest(payload: try originalPayload(), app: "com.example.app"), script: script(Self.receipting))
        let delivered = await session.delivered()
        #expect(delivered.stats.deliveredMs < 100, "\(delivered.stats)")
        #expect(delivered.posts.isEmpty)
        let finished = await session.finished()
        #expect(server.received.count == 1)
        #expect(finished.posts.map(\.after) == [true])
        #expect(finished.logs.contains { $0.message == "receipt 200" }, "\(finished.logs)")
        #expect(finished.stats.wallMs >= 2000)
    }

    @Test func deliverReturnsTheFinishedResult() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let result = await host.deliver(try request(), script: script(Self.receipting), answers: answers(http: [Self.receipt: PostAnswer(status: 200)]))
        #expect(result.posts.map(\.after) == [true])
        #expect(result.stats.deliveredMs <= result.stats.wallMs)
    }

    @Test func theContentIsAReadOnlyViewOfWhatWasDelivered() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let result = await host.deliver(try request(), script: script("""
            function didReceive(r, c) c.title = "shown" c.userInfo.k = 1 end
            function afterDelivery(r, c)
              log.info("title " .. c.title .. " k " .. tostring(c.userInfo.k))
              local ok, err = pcall(function() c.title = "changed" end)
              log.info("write: " .. tostring(err))
              ok, err = pcall(function() c:suppress() end)
              log.info("method: " .. tostring(err))
              ok, err = pcall(categories.register, {identifier = "x", actions = {}})
              log.info("register: " .. tostring(err))
              local f, derr = download("https://cdn.example.com/a.jpg")
              log.info("download: " .. tostring(f) .. " " .. tostring(derr))
              store.set("after", "yes")
            end
            """))
        #expect(result.outcome == .completed)
        #expect(result.content.title == "shown")
        #expect(result.suppressed == false)
        #expect(result.registeredCategories.isEmpty)
        let messages = result.logs.map(\.message)
        #expect(messages.contains("title shown k 1"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("write: ") && $0.hasSuffix("content is read-only after delivery") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("method: ") && $0.hasSuffix("content is read-only after delivery") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("register: ") && $0.contains("not allowed after delivery") }, "\(messages)")
        #expect(messages.contains("download: nil not allowed: no download may start after delivery (the content was handed over)"), "\(messages)")
        let read = await host.deliver(try request(), script: script("function didReceive(r, c) c.title = store.get('after') end"))
        #expect(read.content.title == "yes")
    }

    @Test func aFailingOrOverBudgetAfterDeliveryChangesNothingDelivered() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let failing = await host.deliver(try request(), script: script("""
            function didReceive(r, c) c.title = "shown" end
            function afterDelivery(r, c) error("receipt failed") end
            """))
        #expect(failing.outcome == .completed && failing.content.title == "shown")
        #expect(failing.logs.contains { $0.source == "host" && $0.level == .warn && $0.message == "afterDelivery failed: rules.lua:2: receipt failed" }, "\(failing.logs)")
        let looping = await host.deliver(try request(), script: script("""
            function didReceive(r, c) c.title = "shown" end
            function afterDelivery(r, c) while true do end end
            """))
        #expect(looping.outcome == .completed && looping.content.title == "shown")
        #expect(looping.logs.contains { $0.source == "host" && $0.message == "afterDelivery was stopped: it used more than its 50 ms of CPU" }, "\(looping.logs)")
        #expect(looping.stats.cpuMs >= 50)
    }

    @Test func itRunsAfterBestAttemptButNotAfterALoadFailure() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let afterError = await host.deliver(try request(), script: script("""
            function didReceive(r, c) c.title = "half" error("no") end
            function bestAttempt(c, reason) c.body = "best" end
            function afterDelivery(r, c) log.info("after saw " .. c.title .. "/" .. c.body) end
            """))
        #expect(afterError.reason?.kind == .error)
        #expect(afterError.logs.contains { $0.message == "after saw half/best" }, "\(afterError.logs)")
        let load = await host.deliver(try request(), script: script("""
            function afterDelivery(r, c) log.info("after ran") end
            error("chunk fails")
            """))
        #expect(load.reason?.kind == .load)
        #expect(!load.logs.contains { $0.message == "after ran" })
    }

    @Test func aScriptWithoutItKeepsItsStateForTheNextRequest() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        _ = await host.deliver(try request(), script: script("function didReceive(r, c) end"))
        _ = await host.deliver(try request(), script: script(Self.receipting.replacingOccurrences(of: "http.post", with: "tostring")))
        let pool = host.runtime(for: "com.example.app").pool(host.services)
        #expect(pool.madeCount == 1)
        #expect(pool.idleCount == 1)
    }

    @Test func expiringDuringAfterDeliveryStopsItAndKeepsWhatWasDelivered() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let session = host.start(try request(), script: script(Self.receipting), answers: answers(http: [Self.receipt: PostAnswer(status: 200, delayMs: 5000)]))
        let delivered = await session.delivered()
        try await Task.sleep(for: .milliseconds(100))
        let expired = ContinuousClock.now
        session.expire()
        let finished = await session.finished()
        #expect(ContinuousClock.now - expired < .milliseconds(300))
        #expect(finished.outcome == delivered.outcome && finished.content.title == "shown")
        #expect(finished.posts.map(\.after) == [true])
        #expect(finished.logs.contains { $0.source == "host" && $0.message == "afterDelivery was stopped: the system's time ran out (serviceExtensionTimeWillExpire) before it returned" }, "\(finished.logs)")
    }

    @Test func afterAnExpiryItIsNotCalled() async throws {
        let host = ScriptHost(configuration: HostConfiguration(offline: true))
        let session = host.start(try request(), script: script("""
            function didReceive(r, c) c.title = "looping" while true do end end
            function afterDelivery(r, c) log.info("after ran") end
            """))
        try await Task.sleep(for: .milliseconds(50))
        session.expire()
        let finished = await session.finished()
        #expect(finished.reason?.kind == .time)
        #expect(!finished.logs.contains { $0.message == "after ran" })
    }
}
