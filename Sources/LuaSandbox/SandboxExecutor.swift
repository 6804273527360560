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
/// The limits themselves (the CPU budget, the deadline) are timers of the Lua thread armed by
/// ``LuaSandbox/arm(_:)``: they stop a script in Lua code with no help from here. The executor
/// acts only when a job's deadline comes: it calls the caller's `onDeadline` (to cancel
/// downloads) and cancels the sandbox, so a script in a host call stops at its next check.
/// If the job still has not returned after `grace`, the caller gets ``JobOutcome/abandoned``
/// at once; the job goes on in the background, its result is dropped, and the sandbox is
/// closed by that thread when — if ever — the job returns.
///
/// A job of several phases (a request's `didReceive`, then its `bestAttempt`) runs as one job
/// on one thread and gives each phase its own deadline with ``JobClock/begin(deadline:onDeadline:)``.
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
        await run(sandbox, deadline: deadline, grace: grace, onDeadline: onDeadline) { sandbox, _ in body(sandbox) }
    }

    /// Runs `body` with the sandbox and the job's clock on a Lua thread. The job starts under
    /// `deadline`; ``JobClock/begin(deadline:onDeadline:)`` replaces it for a later phase.
    public func run<Value: Sendable>(
        _ sandbox: LuaSandbox,
        deadline: Deadline?,
        grace: Duration = .milliseconds(50),
        onDeadline: (@Sendable () -> Void)? = nil,
        _ body: @escaping @Sendable (LuaSandbox, JobClock) -> Value
    ) async -> JobOutcome<Value> {
        precondition(!sandbox.isAbandoned, "an abandoned sandbox must not be used again")
        let once = Once<Value>(sandbox: sandbox, watchdog: watchdog, pool: pool, grace: grace)
        let clock = JobClock(once)
        let pool = self.pool
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            if let deadline { once.begin(deadline: deadline, onDeadline: onDeadline) }
            pool.submit {
                // A job whose caller was answered before it could start does not start.
                guard !sandbox.isAbandoned else { return pool.stuckJobEnded() }
                let value = body(sandbox, clock)
                // After an abandonment the value is dropped; the last reference to the sandbox
                // may go with this closure, closing its state on this thread.
                if !once.finish(value) { pool.stuckJobEnded() }
            }
        }
    }
}

/// A running job's hold on its deadline.
public final class JobClock: Sendable {
    private let phases: any PhaseClock

    fileprivate init(_ phases: any PhaseClock) { self.phases = phases }

    /// Starts a phase of the job with a deadline of its own: from now on only `deadline` (and
    /// its grace) applies, and `onDeadline` is what runs when it comes. Call it before arming
    /// the phase's limits: a cancel meant for the phase before cannot reach this one.
    public func begin(deadline: Deadline, onDeadline: (@Sendable () -> Void)? = nil) {
        phases.begin(deadline: deadline, onDeadline: onDeadline)
    }
}

private protocol PhaseClock: Sendable {
    func begin(deadline: Deadline, onDeadline: (@Sendable () -> Void)?)
}

/// Resumes a continuation exactly once, whoever comes first, and keeps the deadline of the
/// job's current phase with the watchdog.
private final class Once<Value: Sendable>: PhaseClock, Sendable {
    private struct State {
        var continuation: CheckedContinuation<JobOutcome<Value>, Never>?
        var done = false
        /// The current phase; a deadline or grace action of an earlier one does nothing.
        var phase = 0
        var timers: [UInt64] = []
    }

    private let state = Mutex(State())
    private let sandbox: LuaSandbox
    private let watchdog: DeadlineWatchdog
    private let pool: LuaThreadPool
    private let grace: Duration

    init(sandbox: LuaSandbox, watchdog: DeadlineWatchdog, pool: LuaThreadPool, grace: Duration) {
        self.sandbox = sandbox
        self.watchdog = watchdog
        self.pool = pool
        self.grace = grace
    }

    func set(_ continuation: CheckedContinuation<JobOutcome<Value>, Never>) {
        state.withLock { $0.continuation = continuation }
    }

    func begin(deadline: Deadline, onDeadline: (@Sendable () -> Void)?) {
        state.withLock { s in
            guard !s.done else { return }
            s.phase += 1
            s.timers.forEach(watchdog.cancel)
            let phase = s.phase
            s.timers = [watchdog.schedule(at: deadline) { [self] in deadlineCame(phase, onDeadline) }]
        }
    }

    /// At a phase's deadline: cancels the sandbox and starts the grace.
    private func deadlineCame(_ phase: Int, _ onDeadline: (@Sendable () -> Void)?) {
        state.withLock { s in
            // Under the lock, so the cancel cannot reach a later phase or job on this sandbox.
            guard !s.done, s.phase == phase else { return }
            onDeadline?()
            sandbox.cancel()
            s.timers.append(watchdog.schedule(at: .after(grace)) { [self] in graceEnded(phase) })
        }
    }

    /// At the end of a phase's grace: the caller is answered and the sandbox abandoned.
    private func graceEnded(_ phase: Int) {
        let continuation = state.withLock { s -> CheckedContinuation<JobOutcome<Value>, Never>? in
            guard !s.done, s.phase == phase else { return nil }
            s.done = true
            s.timers = []
            sandbox.markAbandoned()
            pool.stuckJobBegan()
            defer { s.continuation = nil }
            return s.continuation
        }
        continuation?.resume(returning: .abandoned)
    }

    /// Gives the job's result when no answer was given yet and cancels its timers. False when
    /// the caller had been answered already (the job was abandoned).
    func finish(_ value: Value) -> Bool {
        let (continuation, timers) = state.withLock { s -> (CheckedContinuation<JobOutcome<Value>, Never>?, [UInt64]) in
            guard !s.done else { return (nil, []) }
            s.done = true
            defer {
                s.continuation = nil
                s.timers = []
            }
            return (s.continuation, s.timers)
        }
        timers.forEach(watchdog.cancel)
        // the job's work is done: the task it resumes may go on on this thread
        pool.jobFinishing()
        continuation?.resume(returning: .finished(value))
        return continuation != nil
    }
}
