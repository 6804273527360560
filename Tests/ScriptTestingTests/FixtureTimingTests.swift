import Foundation
import NotificationModel
import ScriptHost
import Testing
@testable import ScriptTesting

/// Fixtures that say when: a receipt posted after delivery (the how-to's own fixture), and a
/// fixture's `expireMs`.
@Suite(.serialized) struct FixtureTimingTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/examples")

    func result(_ path: String) async throws -> (FixtureOutcome, [String: JSONValue]) {
        let fixture = try Fixture(contentsOf: Self.examples.appendingPathComponent(path))
        let runner = FixtureRunner()
        let outcome = try await runner.run(fixture, on: ScriptHost(configuration: runner.configuration))
        return (outcome, outcome.result.objectValue ?? [:])
    }

    @Test func aReceiptHostThatAnswersAfterTwoSecondsDoesNotDelayDelivery() async throws {
        let (outcome, result) = try await result("receipt-after-delivery/01-slow-receipt.fixture.json")
        #expect(outcome.passed, "\(outcome.report)")
        let stats = result["stats"]?.objectValue ?? [:]
        let delivered = stats["deliveredMs"]?.doubleValue ?? .infinity
        let wall = stats["wallMs"]?.doubleValue ?? 0
        #expect(delivered < 100, "\(stats)")
        #expect(wall >= 2000, "\(stats)")
        #expect(result["posts"]?.arrayValue?.first?.objectValue?["after"] == .bool(true))
        print("a receipt answered after 2 s: delivered at \(delivered) ms, the request ended at \(wall) ms")
    }

    @Test func aFixturesExpiryEndsItsRequestThen() async throws {
        let (outcome, result) = try await result("time-runs-out/04-system-expiry.fixture.json")
        #expect(outcome.passed, "\(outcome.report)")
        let delivered = result["stats"]?.objectValue?["deliveredMs"]?.doubleValue ?? .infinity
        // bestAttempt's budget (250 ms) + 50 ms after the expiry at 200 ms
        #expect(delivered < 200 + 300, "\(delivered)")
        print("a fixture's expireMs of 200 ms during a 3 s download: delivered at \(delivered) ms")
    }

    @Test func aBadExpiryIsAMalformedFixture() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-expiry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.fixture.json")
        try Data(#"{"script": "r.lua", "payload": {"aps": {}}, "expireMs": 0, "expect": {}}"#.utf8).write(to: file)
        #expect(throws: FixtureError.self) { try Fixture(contentsOf: file) }
        do { _ = try Fixture(contentsOf: file) } catch {
            #expect(error.problem == "'expireMs' must be a whole number of milliseconds from 1 to 86400000 (a day)")
        }
    }
}
