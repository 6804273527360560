import Synchronization

/// A hold on a job from outside it: ``expire()`` makes the deadline of the job's current phase
/// come now, as iOS's `serviceExtensionTimeWillExpire` ends an extension's time.
///
/// Give one to ``SandboxExecutor/run(_:deadline:grace:onDeadline:control:_:)`` (one control
/// may serve the jobs of one request in turn). A phase begun as not expirable
/// (``JobClock/begin(deadline:onDeadline:expirable:)``) keeps its own deadline: an expiry
/// during it does nothing to it. An expiry before a job starts ends its first phase as soon
/// as the job is given to the executor; a job that had not started by then never starts
/// (``JobOutcome/notStarted``).
package final class JobControl: Sendable {
    private struct State {
        var expired = false
        var job: (any PhaseClock)?
    }

    private let state = Mutex(State())

    /// A control that has not expired.
    package init() {}

    /// Whether ``expire()`` was called.
    package var isExpired: Bool { state.withLock { $0.expired } }

    /// Ends the current phase of the job now, if it is expirable: the executor does what it
    /// does at a deadline (the caller's `onDeadline`, the sandbox cancelled, the grace). Any
    /// thread, any number of times; after the first, nothing more happens.
    package func expire() {
        let job = state.withLock { s -> (any PhaseClock)? in
            guard !s.expired else { return nil }
            s.expired = true
            return s.job
        }
        job?.expireNow()
    }

    /// Makes `job` the one an expiry reaches; ends its current phase at once when the control
    /// expired already.
    func attach(_ job: any PhaseClock) {
        let expired = state.withLock { s -> Bool in
            s.job = job
            return s.expired
        }
        if expired { job.expireNow() }
    }

    /// Lets go of `job` when it is still the one attached.
    func detach(_ job: any PhaseClock) {
        state.withLock { s in
            if let attached = s.job, attached === job { s.job = nil }
        }
    }
}

/// What a job's phases answer to: their deadlines and an expiry.
protocol PhaseClock: AnyObject, Sendable {
    func begin(deadline: Deadline, onDeadline: (@Sendable () -> Void)?, expirable: Bool)
    /// Ends the current phase now when it is expirable.
    func expireNow()
}
