import LuaSandbox

/// The part of a request whose writes land: `didReceive` (with the chunk before it), then
/// perhaps `bestAttempt`, then sealed once the result is taken.
enum RequestPhase: Sendable, Hashable {
    /// The chunk and `didReceive` run; downloads may start.
    case didReceive
    /// `bestAttempt` runs; no download may start.
    case bestAttempt
    /// The result was taken: nothing lands any more.
    case sealed
}

/// The decisions of a delivery apart from running Lua: after the request's job ended (or was
/// given up), what is delivered and what runs first. A small state machine over
/// ``Stage`` and ``Step``, driven by ``ScriptHost/deliver(_:script:)`` and testable alone.
enum DeliveryPlan {
    /// Where a request's job is (recorded by the job as it goes).
    enum Stage: Sendable, Hashable {
        /// The job has not started the script's chunk (it waits for its thread, or compiles).
        case waiting
        /// The script's chunk runs; `didReceive` has not started.
        case loading
        /// `didReceive` runs.
        case didReceive
        /// `bestAttempt` runs, after `didReceive` ended with this reason.
        case bestAttempt(after: DeliveryResult.Reason)
    }

    /// What the delivering side does next.
    enum Step: Sendable, Hashable {
        /// Deliver: completed (no reason) or a fallback with its reason; `original` delivers
        /// the content as it came, not as the script left it. `warning` goes to the log.
        case deliver(reason: DeliveryResult.Reason?, original: Bool, warning: String?)
        /// Run `bestAttempt` in a fresh state (the one that ran `didReceive` is stuck), then
        /// deliver a fallback with the reason.
        case bestAttemptInFreshState(DeliveryResult.Reason)
    }

    /// What is delivered after the job returned with how `didReceive` ended (its
    /// `bestAttempt`, if any, ran in the same job): no reason when it completed; `original`
    /// when the script never ran.
    static func afterJob(_ end: MainPhase.End) -> (reason: DeliveryResult.Reason?, original: Bool) {
        switch end {
        case .completed: return (nil, false)
        case .load(let message): return (.init(kind: .load, message: message), true)
        case .failed(let reason): return (reason, false)
        }
    }

    /// After the host gave the job up at `stage`, stuck past its deadline and grace.
    static func afterAbandonment(at stage: Stage, script: String, limits: ScriptLimits) -> Step {
        let stuck = "the script did not stop at the deadline; its Lua state was abandoned"
        switch stage {
        case .loading:
            // The chunk never finished: it is not run again for a bestAttempt.
            return .deliver(
                reason: .init(kind: .load, message: DeliveryResult.Reason.loadMessage(.limit(.time), script: script, limits)),
                original: true, warning: stuck)
        case .waiting, .didReceive:
            return .bestAttemptInFreshState(DeliveryResult.Reason.limit(.time, limits))
        case .bestAttempt(let reason):
            return .deliver(
                reason: reason, original: false,
                warning: "bestAttempt did not return within \(DeliveryResult.Reason.ms(limits.bestAttemptTime)) ms; the content is delivered as it stood")
        }
    }

    /// After the fresh state's `bestAttempt` was given up too.
    static func afterFreshBestAttemptAbandoned(_ limits: ScriptLimits) -> String {
        "bestAttempt did not return within \(DeliveryResult.Reason.ms(limits.bestAttemptTime)) ms; the content is delivered as it stood"
    }
}
