import Dispatch
import Foundation
import Synchronization

/// One thread that runs actions when their deadlines come.
///
/// A delivery schedules its deadline here and cancels it when the job returns, which costs a
/// lock and no thread wake-up in the usual case: a new deadline wakes the thread only when it is
/// earlier than the one the thread sleeps until. (A timer per job costs a kernel round trip to
/// the timer thread on every request.)
final class DeadlineWatchdog: Sendable {
    static let shared = DeadlineWatchdog()

    private struct Entry {
        let deadline: Deadline
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// When the thread will next look, nil when it sleeps until signalled.
        var sleepsUntil: Deadline?
        var started = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    /// Runs `action` on the watchdog's thread at `deadline` unless cancelled first.
    func schedule(at deadline: Deadline, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, signal, start) = state.withLock { s -> (UInt64, Bool, Bool) in
            s.nextID += 1
            s.entries[s.nextID] = Entry(deadline: deadline, action: action)
            let start = !s.started
            s.started = true
            let signal = s.sleepsUntil.map { deadline < $0 } ?? true
            if signal { s.sleepsUntil = deadline }
            return (s.nextID, signal, start)
        }
        if start {
            let thread = Thread { [self] in loop() }
            thread.name = "deadlines"
            thread.start()
        }
        if signal { wake.signal() }
        return id
    }

    /// Drops a scheduled action; it will not run.
    func cancel(_ id: UInt64) {
        _ = state.withLock { $0.entries.removeValue(forKey: id) }
    }

    /// How many actions are scheduled and not yet run or cancelled.
    var scheduledCount: Int { state.withLock { $0.entries.count } }

    private func loop() {
        while true {
            let (due, next) = state.withLock { s -> ([@Sendable () -> Void], Deadline?) in
                let now = Deadline.now()
                var due: [@Sendable () -> Void] = []
                var next: Deadline?
                for (id, entry) in s.entries {
                    if entry.deadline <= now {
                        due.append(entry.action)
                        s.entries[id] = nil
                    } else if next.map({ entry.deadline < $0 }) ?? true {
                        next = entry.deadline
                    }
                }
                s.sleepsUntil = next
                return (due, next)
            }
            for action in due { action() }
            if let next {
                _ = wake.wait(timeout: next.dispatchTime)
            } else {
                wake.wait()
            }
        }
    }
}
