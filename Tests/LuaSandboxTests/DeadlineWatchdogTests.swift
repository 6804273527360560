import Dispatch
import Foundation
@testable import LuaSandbox
import Synchronization
import Testing

/// The watchdog keeps its actions in one shard per scheduling thread and runs each at its
/// deadline, whichever thread scheduled it and whatever the thread was sleeping until.
@Suite struct DeadlineWatchdogTests {
    @Test func actionsScheduledFromManyThreadsRunAtTheirDeadlinesAndCancelledOnesDoNot() async throws {
        let watchdog = DeadlineWatchdog()
        let ran = Mutex<[Int: Int64]>([:])
        let start = Deadline.now()
        // A far deadline first, so that the thread sleeps past the near ones scheduled next.
        let far = watchdog.schedule(at: start.advanced(by: .seconds(30))) { ran.withLock { $0[-1] = 0 } }
        let group = DispatchGroup()
        for thread in 0..<12 {
            group.enter()
            Thread {
                // Deadlines from 40 to 150 ms out; every third one is cancelled.
                let at = start.advanced(by: .milliseconds(150 - thread * 10))
                let id = watchdog.schedule(at: at) { ran.withLock { $0[thread] = Deadline.now().nanoseconds - at.nanoseconds } }
                if thread % 3 == 0 { watchdog.cancel(id) }
                group.leave()
            }.start()
        }
        group.wait()
        try await Task.sleep(for: .milliseconds(400))
        watchdog.cancel(far)
        let late = ran.withLock { $0 }
        #expect(Set(late.keys) == Set((0..<12).filter { $0 % 3 != 0 }))
        for (thread, lateness) in late {
            #expect(lateness >= 0 && lateness < 100_000_000, "action \(thread) ran \(lateness / 1_000_000) ms after its deadline")
        }
        #expect(watchdog.scheduledCount == 0)
    }
}
