import FixtureTransports
import Foundation
import NotificationModel
import Testing
@testable import ScriptHost

/// `providers.apply`'s delivery receipts: posted only when asked and allowed, and never in the
/// way of the rest.
@Suite(.serialized) struct ProvidersReceiptTests {
    static let url = "https://api.onesignal.com/notifications/n-1/report_received"

    func payload() throws -> Payload {
        try Payload(jsonData: Data(#"{"aps": {"alert": "hi", "mutable-content": 1}, "custom": {"i": "n-1", "badge_inc": 1}, "buttons": [{"i": "a", "n": "A"}]}"#.utf8))
    }

    func deliver(options: String, allow: Set<String>) async throws -> DeliveryResult {
        let host = ScriptHost(configuration: HostConfiguration(allowPostHosts: allow, offline: true))
        let source = """
            local providers = require "pushscript.providers"
            function didReceive(r, c) providers.apply(r, c, \(options)) end
            """
        let request = NotificationRequest(payload: try payload(), app: "com.example.app")
        return await host.deliver(request, script: .script(Script(name: "rules.lua", source: source)), answers: answers(http: [Self.url: PostAnswer(status: 200)]))
    }

    @Test func aReceiptIsPostedWhenAskedAndAllowed() async throws {
        let result = try await deliver(options: #"{receipts = {onesignal = {appId = "app-1"}}}"#, allow: ["api.onesignal.com"])
        #expect(result.posts.map(\.url) == [Self.url])
        #expect(result.posts.first?.after == true)
        #expect(result.posts.first?.method == "PUT")
        #expect(result.posts.first?.body == #"{"app_id":"app-1","device_type":0,"player_id":null}"#)
    }

    @Test func noReceiptWithoutTheOption() async throws {
        let result = try await deliver(options: "nil", allow: ["api.onesignal.com"])
        #expect(result.posts.isEmpty)
        #expect(result.logs.contains { $0.message == "onesignal: delivery receipt not sent: not asked (options.receipts)" })
    }

    @Test func noReceiptWhenTheHostIsNotAllowed() async throws {
        let result = try await deliver(options: #"{receipts = {onesignal = {appId = "app-1"}}}"#, allow: [])
        #expect(result.posts.isEmpty)
        #expect(result.logs.contains { $0.level == .debug && $0.message.hasPrefix("onesignal: delivery receipt not sent: not allowed") })
    }

    @Test func noReceiptWithoutTheIdsThePayloadLacks() async throws {
        let result = try await deliver(options: "{receipts = true}", allow: ["api.onesignal.com"])
        #expect(result.posts.isEmpty)
        #expect(result.logs.contains { $0.message == "onesignal: delivery receipt not sent: options.receipts.onesignal.appId is not given" })
    }

    @Test func aFailingReceiptLeavesButtonsAndBadge() async throws {
        let host = ScriptHost(configuration: HostConfiguration(allowPostHosts: ["api.onesignal.com"], offline: true))
        let source = #"local p = require "pushscript.providers" function didReceive(r, c) p.apply(r, c, {receipts = {onesignal = {appId = "x"}}}) end"#
        let request = NotificationRequest(payload: try payload(), app: "com.example.app")
        let result = await host.deliver(request, script: .script(Script(name: "rules.lua", source: source)), answers: answers(http: [Self.url: PostAnswer(status: 503)]))
        #expect(result.outcome == .completed)
        #expect(result.content.categoryIdentifier == "__onesignal__dynamic__n-1")
        #expect(result.content.badge == 1)
        #expect(result.logs.contains { $0.level == .warn && $0.message == "onesignal: delivery receipt answered 503" })
    }

    func deliver(_ source: String, answer: PostAnswer = PostAnswer(status: 200)) async throws -> DeliveryResult {
        let host = ScriptHost(configuration: HostConfiguration(allowPostHosts: ["api.onesignal.com"], offline: true))
        let request = NotificationRequest(payload: try payload(), app: "com.example.app")
        return await host.deliver(request, script: .script(Script(name: "rules.lua", source: source)), answers: answers(http: [Self.url: answer]))
    }

    @Test func theReceiptWaitsForTheContentToBeDelivered() async throws {
        // a receipt server that takes 400 ms: the content is handed over before it answers
        let result = try await deliver(
            #"local p = require "pushscript.providers" function didReceive(r, c) p.apply(r, c, {receipts = {onesignal = {appId = "x"}}}) end"#,
            answer: PostAnswer(status: 200, delayMs: 400))
        #expect(result.outcome == .completed)
        #expect(result.content.categoryIdentifier == "__onesignal__dynamic__n-1")
        #expect(result.posts.map(\.after) == [true])
        // the 400 ms of the receipt come after the content was handed over
        #expect(result.stats.wallMs - result.stats.deliveredMs >= 390, "\(result.stats)")
        #expect(result.logs.contains { $0.message == "onesignal: delivery receipt sent (200)" })
    }

    @Test func aScriptsOwnAfterDeliveryRunsFirstAndTheReceiptIsSentOnce() async throws {
        let source = """
            local providers = require "pushscript.providers"
            function didReceive(r, c) providers.apply(r, c, {receipts = {onesignal = {appId = "x"}}}) end
            function afterDelivery(r, c)
              log.info("own afterDelivery")
              providers.afterDelivery(r, c)   -- sends the receipt; the library's call after this sends nothing more
            end
            """
        let result = try await deliver(source)
        #expect(result.posts.map(\.after) == [true])
        let messages = result.logs.map(\.message)
        let own = try #require(messages.firstIndex(of: "own afterDelivery"))
        let sent = try #require(messages.firstIndex(of: "onesignal: delivery receipt sent (200)"))
        #expect(own < sent)
    }

    @Test func anAfterDeliveryThatFailsStillLetsTheReceiptGo() async throws {
        let source = """
            local providers = require "pushscript.providers"
            function didReceive(r, c) providers.apply(r, c, {receipts = {onesignal = {appId = "x"}}}) end
            function afterDelivery(r, c) error("own part broken") end
            """
        let result = try await deliver(source)
        #expect(result.outcome == .completed)
        #expect(result.posts.map(\.after) == [true])
        #expect(result.logs.contains { $0.source == "host" && $0.message.contains("own part broken") })
    }

    @Test func withoutReceiptsNothingIsPostedAndNothingWaits() async throws {
        let result = try await deliver(#"local p = require "pushscript.providers" function didReceive(r, c) p.apply(r, c) end"#)
        #expect(result.posts.isEmpty)
        #expect(result.jsonValue.objectValue?["posts"] == .array([]))
    }

    @Test func aLibraryRequiredFirstInsideDidReceiveNeedsTheScriptsAfterDelivery() async throws {
        // the host knows a script's handlers once its chunk has run: a module required later
        // cannot make itself the script's afterDelivery (docs/script-api.md says so)
        let result = try await deliver(#"function didReceive(r, c) require("pushscript.providers").apply(r, c, {receipts = {onesignal = {appId = "x"}}}) end"#)
        #expect(result.outcome == .completed)
        #expect(result.posts.isEmpty)
        // defining afterDelivery itself is enough
        let defined = try await deliver("""
            function didReceive(r, c) require("pushscript.providers").apply(r, c, {receipts = {onesignal = {appId = "x"}}}) end
            function afterDelivery(r, c) require("pushscript.providers").afterDelivery(r, c) end
            """)
        #expect(defined.posts.map(\.after) == [true])
    }
}
