@testable import pushscript
import Foundation
import Synchronization
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

/// A request left for a busy lane is not left waiting while another lane sits idle.
@Suite struct LeftRequestLivenessTests {
    static func line(_ id: Int, _ app: String) -> String {
        #"{"id":\#(id),"app":"\#(app)","payload":{"aps":{"alert":"hi"}}}"# + "\n"
    }

    final class Box: Sendable {
        let taken = Mutex<ServeIntake.Taken?>(nil)
    }

    @Test func aLaneWaitingForRoomTakesARequestLeftForABusyLane() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let apps = ["x", "z", "s", "z", "s", "s", "s", "x", "c"]
        let text = apps.enumerated().map { Self.line($0.offset, $0.element) }.joined()
        _ = text.utf8CString.withUnsafeBufferPointer { write(fds[1], $0.baseAddress, $0.count - 1) }
        // A long window, so that the test does not depend on timing: x stays left for lane 0.
        let queues = AppQueues(lanes: 3, affinityWindow: .seconds(60))
        let intake = ServeIntake(
            source: LineSource(descriptor: fds[0]), queues: queues, defaultApp: nil, maximumLineBytes: 1 << 16,
            maximumLines: 6, maximumBytes: 1 << 20)
        func served(_ taken: ServeIntake.Taken) -> AcceptedRequest? {
            if case .serve(let request) = taken { return request }
            return nil
        }
        // Lane 0 serves x, then s (which goes on); lane 1 serves z.
        let x0 = try #require(served(await intake.take(lane: 0)))
        #expect(x0.app == "x")
        intake.answered(lines: 1, bytes: x0.bytes)
        #expect(queues.next(of: "x", lane: 0) == nil)
        let z1 = try #require(served(await intake.take(lane: 1)))
        #expect(z1.app == "z")
        let s1 = try #require(served(await intake.take(lane: 0)))
        #expect(s1.app == "s")
        // Lane 2 queues z's and s's next requests and waits for room: six lines are pending.
        let box = Box()
        let lane2 = Task { let taken = await intake.take(lane: 2); box.taken.withLock { $0 = taken } }
        try await Task.sleep(for: .milliseconds(100))
        #expect(box.taken.withLock { $0 == nil })
        // Lane 1 answers z's two requests: four lines pending, above half the window.
        intake.answered(lines: 1, bytes: z1.bytes)
        let z2 = try #require(queues.next(of: "z", lane: 1))
        intake.answered(lines: 1, bytes: z2.bytes)
        #expect(queues.next(of: "z", lane: 1) == nil)
        // Lane 1 reads x's request (left for lane 0, busy with s) and c's, which it serves.
        let c = try #require(served(await intake.take(lane: 1)))
        #expect(c.app == "c")
        // Lanes 0 and 1 are busy; lane 2 is idle: it, not lane 0 when s is done, serves x.
        try await Task.sleep(for: .milliseconds(300))
        let taken = box.taken.withLock { $0 }
        intake.stop(.endOfInput)
        await lane2.value
        #expect(taken.flatMap(served)?.app == "x")
    }
}
