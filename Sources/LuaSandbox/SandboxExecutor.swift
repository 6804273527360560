import Dispatch
import Synchronization

/// How a job given to ``SandboxExecutor`` ended for its caller.
package enum JobOutcome<Value: Sendable>: Sendable {
    /// The job returned this value in time.
    case finished(Value)
    /// The job did not return by its deadline and grace: the caller got this answer on time,
    /// and the sandbox is abandoned, never to be used again.
    case abandoned
    /// The job's first deadline came (or it was expired) before a Lua thread was free to start
    /// it: it never ran and never will, and the sandbox is as it was (it may be used again).
    case notStarted
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
/// on one thread and gives each phase its own deadline with
/// ``JobClock/begin(deadline:onDeadline:expirable:)``. A ``JobControl`` makes the current
/// phase's deadline come now, from outside (the system's time ran out). A job that waits for a
/// thread past its deadline never runs: its caller is answered ``JobOutcome/notStarted`` then.
///
/// The executor holds its pool and watchdog by references it never gives back: they live as
/// long as the process, as their threads do (a thread of either holds it for good), and so a
/// copy of the executor, made by every request from every Lua thread, retains nothing (an
/// object retained from two cores moves between their caches each time).
package struct SandboxExecutor: Sendable {
    private let poolReference: Unmanaged<LuaThreadPool>
    private let watchdogReference: Unmanaged<DeadlineWatchdog>

    /// The threads jobs run on.
    package var pool: LuaThreadPool { poolReference.takeUnretainedValue() }

    /// Whether every thread of the pool is held by a job the executor gave up on (see
    /// ``LuaThreadPool/isHeldByStuckJobs``), read without retaining the pool.
    package var isHeldByStuckJobs: Bool { poolReference._withUnsafeGuaranteedRef { $0.isHeldByStuckJobs } }

    /// An executor over a pool of Lua threads.
    package init(pool: LuaThreadPool = .shared) { self.init(pool: pool, watchdog: .shared) }

    /// An executor whose deadlines a watchdog of its own keeps (for tests).
    init(pool: LuaThreadPool, watchdog: DeadlineWatchdog) {
        poolReference = .passRetained(pool)
        watchdogReference = .passRetained(watchdog)
    }

    /// Runs `body` with the sandbox on a Lua thread and returns what it returned, or
    /// ``JobOutcome/abandoned`` when it was not back by `deadline` plus `grace`, or
    /// ``JobOutcome/notStarted`` when the deadline came before a thread was free to start it.
    package nonisolated(nonsending) func run<Value: Sendable>(
        _ sandbox: LuaSandbox,
        deadline: Deadline?,
        grace: Duration = .milliseconds(50),
        onDeadline: (@Sendable () -> Void)? = nil,
        control: JobControl? = nil,
        _ body: @escaping @Sendable (LuaSandbox) -> Value
    ) async -> JobOutcome<Value> {
        await run(sandbox, deadline: deadline, grace: grace, onDeadline: onDeadline, control: control) { sandbox, _ in body(sandbox) }
    }

    /// Runs `body` with the sandbox and the job's clock on a Lua thread. The job starts under
    /// `deadline`, expirable through `control`; ``JobClock/begin(deadline:onDeadline:expirable:)``
    /// replaces both for a later phase.
    ///
    /// A job still waiting for a thread when its deadline comes (or when `control` expires) is
    /// answered ``JobOutcome/notStarted`` at once and never runs: the sandbox was not touched.
    package nonisolated(nonsending) func run<Value: Sendable>(
        _ sandbox: LuaSandbox,
        deadline: Deadline?,
        grace: Duration = .milliseconds(50),
        onDeadline: (@Sendable () -> Void)? = nil,
        control: JobControl? = nil,
        _ body: @escaping @Sendable (LuaSandbox, JobClock) -> Value
    ) async -> JobOutcome<Value> {
        precondition(!sandbox.isAbandoned, "an abandoned sandbox must not be used again")
        let once = Once(sandbox: sandbox, watchdog: watchdogReference, pool: poolReference, grace: grace, control: control)
        let clock = JobClock(once)
        // The value travels beside the outcome, so that `Once` is not generic: a generic class
        // called from another module looks up its type metadata at every step.
        let result = JobResult<Value>()
        let end = await withCheckedContinuation { (continuation: CheckedContinuation<JobEnd, Never>) in
            once.set(continuation, onDeadline: onDeadline)
            if let deadline { once.begin(deadline: deadline, onDeadline: onDeadline, expirable: true) }
            control?.attach(once)
            // Answered already (expired before it was given here): nothing to run.
            guard !once.isDone else { return }
            let job: @Sendable () -> Void = {
                // A job whose caller was answered before it could start does not start, and
                // does not touch the sandbox: the caller may be using it again.
                guard once.start() else { return }
                result.value = body(sandbox, clock)
                // After an abandonment the value is dropped; the last reference to the sandbox
                // may go with this closure, closing its state on this thread.
                if !once.finish() { once.stuckJobEnded() }
            }
            poolReference._withUnsafeGuaranteedRef { $0.submit(job) }
        }
        switch end {
        case .finished:
            guard let value = result.value else { preconditionFailure("a finished job has its value") }
            return .finished(value)
        case .abandoned: return .abandoned
        case .notStarted: return .notStarted
        }
    }
}

/// A running job's hold on its deadline.
package final class JobClock: Sendable {
    private let phases: any PhaseClock

    fileprivate init(_ phases: any PhaseClock) { self.phases = phases }

    /// Starts a phase of the job with a deadline of its own: from now on only `deadline` (and
    /// its grace) applies, and `onDeadline` is what runs when it comes. An `expirable` phase
    /// ends at once when the job's ``JobControl`` expires; one that is not keeps its deadline.
    /// Call it before arming the phase's limits: a cancel meant for the phase before cannot
    /// reach this one.
    package func begin(deadline: Deadline, onDeadline: (@Sendable () -> Void)? = nil, expirable: Bool = true) {
        phases.begin(deadline: deadline, onDeadline: onDeadline, expirable: expirable)
    }
}

/// How a job ended for its caller, without its value (``JobResult`` holds that).
private enum JobEnd: Sendable {
    case finished, abandoned, notStarted
}

/// A job's value, written once by the job on its Lua thread before ``Once/finish()`` and read
/// by the caller after the continuation resumed with ``JobEnd/finished`` (the resumption
/// orders the two); an abandoned job's value is written but never read.
private final class JobResult<Value: Sendable>: @unchecked Sendable {
    var value: Value?
}

/// Resumes a continuation exactly once, whoever comes first, and keeps the deadline of the
/// job's current phase with the watchdog.
private final class Once: PhaseClock, Sendable {
    private struct State {
        var continuation: CheckedContinuation<JobEnd, Never>?
        var done = false
        /// Whether the job got a thread.
        var started = false
        /// The current phase; a deadline or grace action of an earlier one does nothing.
        var phase = 0
        /// Whether the current phase ends when the control expires.
        var expirable = true
        /// Whether the current phase's deadline came (by its timer or an expiry).
        var ended = false
        /// What runs when the current phase's deadline comes.
        var onDeadline: (@Sendable () -> Void)?
        var timers: [UInt64] = []
    }

    private let state = Mutex(State())
    private let sandbox: LuaSandbox
    // The executor's, never retained here (see ``SandboxExecutor``: they live for good).
    private let watchdogReference: Unmanaged<DeadlineWatchdog>
    private let poolReference: Unmanaged<LuaThreadPool>
    private let grace: Duration
    private let control: JobControl?

    init(
        sandbox: LuaSandbox, watchdog: Unmanaged<DeadlineWatchdog>, pool: Unmanaged<LuaThreadPool>, grace: Duration,
        control: JobControl?
    ) {
        self.sandbox = sandbox
        watchdogReference = watchdog
        poolReference = pool
        self.grace = grace
        self.control = control
    }

    /// Calls `body` with the watchdog, neither retained nor released.
    private func withWatchdog<R>(_ body: (DeadlineWatchdog) -> R) -> R {
        watchdogReference._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with the pool, neither retained nor released.
    private func withPool<R>(_ body: (LuaThreadPool) -> R) -> R {
        poolReference._withUnsafeGuaranteedRef(body)
    }

    func set(_ continuation: CheckedContinuation<JobEnd, Never>, onDeadline: (@Sendable () -> Void)?) {
        state.withLock { s in
            s.continuation = continuation
            s.onDeadline = onDeadline
        }
    }

    /// Whether the caller has been answered.
    var isDone: Bool { state.withLock { $0.done } }

    /// Marks the job as running on its thread; false when its caller was answered before it
    /// could start (it must then not run).
    func start() -> Bool {
        state.withLock { s in
            guard !s.done else { return false }
            s.started = true
            return true
        }
    }

    func begin(deadline: Deadline, onDeadline: (@Sendable () -> Void)?, expirable: Bool) {
        state.withLock { s in
            guard !s.done else { return }
            s.phase += 1
            s.expirable = expirable
            s.ended = false
            s.onDeadline = onDeadline
            withWatchdog { watchdog in for timer in s.timers { watchdog.cancel(timer) } }
            let phase = s.phase
            s.timers = [withWatchdog { $0.schedule(at: deadline) { [self] in deadlineCame(phase) } }]
        }
    }

    func expireNow() {
        let phase = state.withLock { s -> Int? in s.expirable ? s.phase : nil }
        if let phase { deadlineCame(phase, expiring: true) }
    }

    /// At a phase's deadline: cancels the sandbox and starts the grace; a job that has not
    /// started is answered at once and never starts.
    private func deadlineCame(_ phase: Int, expiring: Bool = false) {
        let unstarted = state.withLock { s -> CheckedContinuation<JobEnd, Never>? in
            // Under the lock, so the cancel cannot reach a later phase or job on this sandbox.
            guard !s.done, s.phase == phase, !s.ended, !expiring || s.expirable else { return nil }
            s.ended = true
            guard s.started else {
                s.done = true
                withWatchdog { watchdog in for timer in s.timers { watchdog.cancel(timer) } }
                s.timers = []
                defer { s.continuation = nil }
                return s.continuation
            }
            s.onDeadline?()
            sandbox.cancel()
            s.timers.append(withWatchdog { $0.schedule(at: .after(grace)) { [self] in graceEnded(phase) } })
            return nil
        }
        if let unstarted {
            control?.detach(self)
            unstarted.resume(returning: .notStarted)
        }
    }

    /// At the end of a phase's grace: the caller is answered and the sandbox abandoned.
    private func graceEnded(_ phase: Int) {
        let continuation = state.withLock { s -> CheckedContinuation<JobEnd, Never>? in
            guard !s.done, s.phase == phase else { return nil }
            s.done = true
            s.timers = []
            sandbox.markAbandoned()
            withPool { $0.stuckJobBegan() }
            defer { s.continuation = nil }
            return s.continuation
        }
        if continuation != nil { control?.detach(self) }
        continuation?.resume(returning: .abandoned)
    }

    /// Tells the pool that this job, abandoned before, has returned: its thread is free again.
    func stuckJobEnded() { withPool { $0.stuckJobEnded() } }

    /// Answers the caller that the job finished (its value is in its ``JobResult``) when no
    /// answer was given yet, and cancels its timers. False when the caller had been answered
    /// already (the job was abandoned).
    func finish() -> Bool {
        let (continuation, timers) = state.withLock { s -> (CheckedContinuation<JobEnd, Never>?, [UInt64]) in
            guard !s.done else { return (nil, []) }
            s.done = true
            defer {
                s.continuation = nil
                s.timers = []
            }
            return (s.continuation, s.timers)
        }
        withWatchdog { watchdog in for timer in timers { watchdog.cancel(timer) } }
        control?.detach(self)
        // the job's work is done: the task it resumes may go on on this thread
        withPool { $0.jobFinishing() }
        continuation?.resume(returning: .finished)
        return continuation != nil
    }
}
