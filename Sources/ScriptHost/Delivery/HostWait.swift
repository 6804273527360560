import Dispatch
import LuaSandbox
import Synchronization

/// A wait of a host call on the Lua thread (a post's answer, a hook's return) that the
/// request's deadline or an expiry cuts short: the request cancels it through the action
/// ``RequestRun/beginWait(cancel:)`` registered, and ``sleep(until:)`` returns at once.
final class HostWait: Sendable {
    private struct State {
        var cancelled = false
        var actions: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    /// Cancels the wait: runs what was to run on a cancel, once.
    func cancel() {
        let actions = state.withLock { s -> [@Sendable () -> Void] in
            guard !s.cancelled else { return [] }
            s.cancelled = true
            defer { s.actions = [] }
            return s.actions
        }
        actions.forEach { $0() }
    }

    /// Whether the wait was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Runs `action` when the wait is cancelled (at once when it was).
    func onCancel(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { s -> Bool in
            if s.cancelled { return true }
            s.actions.append(action)
            return false
        }
        if now { action() }
    }

    /// Sleeps until `deadline` or a cancel, whichever comes first; true when cancelled.
    func sleep(until deadline: Deadline) -> Bool {
        let woken = DispatchSemaphore(value: 0)
        onCancel { woken.signal() }
        _ = woken.wait(timeout: deadline.dispatchTime)
        return isCancelled
    }

    /// Waits for `semaphore` until `deadline` or a cancel; true when the semaphore was
    /// signalled (not cancelled, not timed out).
    func wait(for semaphore: DispatchSemaphore, until deadline: Deadline) -> Bool {
        onCancel { semaphore.signal() }
        return semaphore.wait(timeout: deadline.dispatchTime) == .success && !isCancelled
    }
}
