import Dispatch
import Synchronization

/// How a job given to ``SandboxExecutor`` ended for its caller.
public enum JobOutcome<Value: Sendable>: Sendable {
    /// The job returned this value in time.
    case finished(Value)
    /// The job did not return by its deadline and grace: the caller got this answer on time,
    /// and the sandbox is abandoned, never to be used again.
    case abandoned
}

/// Runs jobs on a sandbox on the Lua threads, under a deadline that holds even when the script
/// is stuck in C code that no hook can interrupt.
///
/// At the deadline the executor calls the caller's `onDeadline` (to cancel downloads) and
/// cancels the sandbox, so a script in Lua code or in a host call stops at its next check.
/// If the job still has not returned after `grace`, the caller gets ``JobOutcome/abandoned``
/// at once; the job goes on in the background, its result is dropped, and the sandbox is
/// closed by that thread when — if ever — the job returns.
public struct SandboxExecutor: Sendable {
    /// The threads jobs run on.
    public let pool: LuaThreadPool
    let watchdog: DeadlineWatchdog

    /// An executor over a pool of Lua threads.
    public init(pool: LuaThreadPool = .shared) { self.init(pool: pool, watchdog: .shared) }

    /// An executor whose deadlines a watchdog of its own keeps (for tests).
    init(pool: LuaThreadPool, watchdog: DeadlineWatchdog) {
        self.pool = pool
        self.watchdog = watchdog
    }

    /// Runs `body` with the sandbox on a Lua thread and returns what it returned, or
    /// ``JobOutcome/abandoned`` when it was not back by `deadline` plus `grace`.
    public func run<Value: Sendable>(
        _ sandbox: LuaSandbox,
        deadline: Deadline?,
        grace: Duration = .milliseconds(50),
        onDeadline: (@Sendable () -> Void)? = nil,
        _ body: @escaping @Sendable (LuaSandbox) -> Value
    ) async -> JobOutcome<Value> {
        precondition(!sandbox.isAbandoned, "an abandoned sandbox must not be used again")
        let once = Once<JobOutcome<Value>>()
        let watchdog = self.watchdog
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            if let deadline {
                let deadlineID = watchdog.schedule(at: deadline) {
                    // Under the lock, so the cancel cannot reach a later job on this sandbox.
                    let pending = once.ifPending {
                        onDeadline?()
                        sandbox.cancel()
                    }
                    guard pending else { return }
                    let graceID = watchdog.schedule(at: .after(grace)) {
                        once.finish(.abandoned) { sandbox.markAbandoned() }
                    }
                    once.track(graceID, on: watchdog)
                }
                once.track(deadlineID, on: watchdog)
            }
            pool.submit {
                let value = body(sandbox)
                // After an abandonment the value is dropped; the last reference to the sandbox
                // may go with this closure, closing its state on this thread.
                once.finish(.finished(value))
                once.cancelTimers(on: watchdog)
            }
        }
    }
}

/// Resumes a continuation exactly once, whoever comes first.
private final class Once<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var done = false
        var timers: [UInt64] = []
    }

    private let state = Mutex(State())

    func set(_ continuation: CheckedContinuation<Value, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Remembers a watchdog entry to cancel once the job is back, or cancels it now when a
    /// result was given already (the job may be back and its timers cancelled).
    func track(_ id: UInt64, on watchdog: DeadlineWatchdog) {
        let done = state.withLock { s -> Bool in
            if !s.done { s.timers.append(id) }
            return s.done
        }
        if done { watchdog.cancel(id) }
    }

    /// Cancels the watchdog entries of a job that is back.
    func cancelTimers(on watchdog: DeadlineWatchdog) {
        let timers = state.withLock { s -> [UInt64] in
            defer { s.timers = [] }
            return s.timers
        }
        timers.forEach(watchdog.cancel)
    }

    /// Runs `body` under the lock when no result has been given yet.
    @discardableResult
    func ifPending(_ body: () -> Void) -> Bool {
        state.withLock { s in
            if s.done { return false }
            body()
            return true
        }
    }

    /// Gives the result when none was given yet; `claimed` runs first, under the lock.
    func finish(_ value: Value, claimed: () -> Void = {}) {
        let continuation = state.withLock { s -> CheckedContinuation<Value, Never>? in
            guard !s.done else { return nil }
            s.done = true
            claimed()
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume(returning: value)
    }
}

extension Duration {
    var dispatchInterval: DispatchTimeInterval {
        .nanoseconds(Int(clamping: max(0, nanoseconds)))
    }
}
