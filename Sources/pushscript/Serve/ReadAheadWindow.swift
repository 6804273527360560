import Synchronization

/// How many lines `serve` may have read ahead of the answers written (`--concurrency`): a
/// line takes a slot before it is read, and writing its answer gives the slot back. One task
/// takes slots; it waits, without holding a thread, while none is free.
final class ReadAheadWindow: Sendable {
    private struct State {
        var free: Int
        var waiter: CheckedContinuation<Void, Never>?

        mutating func takeFree() -> Bool {
            guard free > 0 else { return false }
            free -= 1
            return true
        }
    }

    private let state: Mutex<State>

    /// A window of `size` slots (at least 1).
    init(size: Int) {
        state = Mutex(State(free: max(1, size)))
    }

    /// Takes a slot, waiting for one to be given back when none is free.
    func take() async {
        if state.withLock({ $0.takeFree() }) { return }
        await withCheckedContinuation { continuation in
            let free = state.withLock { s -> Bool in
                if s.takeFree() { return true }
                s.waiter = continuation
                return false
            }
            if free { continuation.resume() }
        }
    }

    /// Gives a slot back: to the task waiting for one, if it waits.
    func release() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if let waiter = s.waiter {
                s.waiter = nil
                return waiter
            }
            s.free += 1
            return nil
        }
        waiter?.resume()
    }
}
