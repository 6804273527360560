@testable import pushscript
import Testing

/// Which lane serves an app's requests: its own order always, the lane that served it last
/// while that lane is busy with a request that began just now, and any lane that reads when
/// such a request has waited too long.
@Suite struct AppQueuesTests {
    static func request(_ index: Int, _ app: String) -> AcceptedRequest {
        AcceptedRequest(index: index, app: app, line: [])
    }

    @Test func anAppWaitsForTheLaneThatServedItWhileThatLaneHasJustBegunARequest() {
        let queues = AppQueues(lanes: 2)
        #expect(queues.claim(Self.request(0, "x"), lane: 0) == .serve)
        #expect(queues.next(of: "x", lane: 0) == nil)
        // Lane 0 takes another app's request; x's next is read by lane 1 and left for lane 0.
        #expect(queues.claim(Self.request(1, "y"), lane: 0) == .serve)
        #expect(queues.claim(Self.request(2, "x"), lane: 1) == .left)
        #expect(queues.claim(Self.request(3, "x"), lane: 1) == .queued)
        // Lane 0, done with y, serves x's requests in their order.
        #expect(queues.next(of: "y", lane: 0)?.index == 2)
        #expect(queues.next(of: "x", lane: 0)?.index == 3)
        #expect(queues.next(of: "x", lane: 0) == nil)
        #expect(queues.steal(lane: 1) == nil)
    }

    @Test func aRequestLeftForABusyLaneIsTakenBackByTheLaneThatReads() async throws {
        let queues = AppQueues(lanes: 2)
        #expect(queues.claim(Self.request(0, "x"), lane: 0) == .serve)
        #expect(queues.next(of: "x", lane: 0) == nil)
        #expect(queues.claim(Self.request(1, "slow"), lane: 0) == .serve)
        #expect(queues.claim(Self.request(2, "x"), lane: 1) == .left)
        // Not overdue yet; taken at once by a lane that would otherwise wait.
        #expect(queues.steal(lane: 1, overdueOnly: true) == nil)
        try await Task.sleep(for: AppQueues.affinityWindow * 2)
        #expect(queues.steal(lane: 1, overdueOnly: true)?.index == 2)
        // x is now lane 1's: lane 0 no longer gets it when it is done with the slow app.
        #expect(queues.next(of: "slow", lane: 0) == nil)
        #expect(queues.next(of: "x", lane: 1) == nil)
    }

    @Test func anAppDoesNotWaitForALaneWhoseRequestBeganLongAgo() async throws {
        let queues = AppQueues(lanes: 2)
        #expect(queues.claim(Self.request(0, "x"), lane: 0) == .serve)
        #expect(queues.next(of: "x", lane: 0) == nil)
        #expect(queues.claim(Self.request(1, "slow"), lane: 0) == .serve)
        try await Task.sleep(for: AppQueues.affinityWindow * 2)
        #expect(queues.claim(Self.request(2, "x"), lane: 1) == .serve)
        #expect(queues.next(of: "x", lane: 1) == nil)
        // Nor for a lane that serves nothing.
        #expect(queues.next(of: "slow", lane: 0) == nil)
        #expect(queues.claim(Self.request(3, "x"), lane: 0) == .serve)
    }
}
