import LuaSandbox

/// The part of a request whose writes land: `didReceive` (with the chunk before it), then
/// perhaps `bestAttempt`, then sealed once the result is taken; then perhaps `afterDelivery`,
/// whose posts and log entries land but never a change to the content.
enum RequestPhase: Sendable, Hashable {
    /// The chunk and `didReceive` run; downloads may start.
    case didReceive
    /// `bestAttempt` runs; no download may start.
    case bestAttempt
    /// The result was taken: nothing lands any more.
    case sealed
    /// `afterDelivery` runs: posts and log entries land, the content is read-only.
    case afterDelivery
}

/// The decisions of a delivery apart from running Lua: after the request's job ended (or was
/// given up), what is delivered. A small state machine over ``Stage``, driven by
/// ``ScriptHost/deliver(_:script:)`` and testable alone.
///
/// The chunk runs once per request whatever happens: a job given up while its state was stuck
/// is not run again anywhere, and `bestAttempt`, which needs that state, is not called then;
/// the content as the script left it is delivered, with a host warning naming where it stuck.
enum DeliveryPlan {
    /// Where a request's job is (recorded by the job as it goes).
    enum Stage: Sendable, Hashable {
        /// The job has not started the script (it waits for its thread).
        case waiting
        /// The script's source is being compiled.
        case compiling
        /// The script's chunk runs; `didReceive` has not started.
        case loading
        /// `didReceive` runs.
        case didReceive
        /// The host reads `userInfo` back after `didReceive` returned.
        case readBack
        /// `bestAttempt` runs (or its `userInfo` is read back), after `didReceive` ended with
        /// this reason.
        case bestAttempt(after: DeliveryResult.Reason)
    }

    /// What is delivered: completed (no reason) or a fallback with its reason; `original`
    /// delivers the content as it came, not as the script left it. `warning` goes to the log.
    struct Delivery: Sendable, Hashable {
        var reason: DeliveryResult.Reason?
        var original: Bool
        var warning: String?
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

    /// After the host gave the job up at `stage`, stuck past its deadline and grace; `cause` is
    /// what ended the request's time.
    static func afterAbandonment(at stage: Stage, script: String, limits: ScriptLimits, cause: TimeCause) -> Delivery {
        let abandoned = "its Lua state was abandoned"
        switch stage {
        case .waiting, .compiling:
            // The script never ran: nothing of it is delivered, nor run again.
            return Delivery(
                reason: .init(kind: .load, message: DeliveryResult.Reason.loadMessage(.limit(.time), script: script, limits, cause: cause, compiling: true)),
                original: true, warning: "\(script) did not finish compiling by the deadline; \(abandoned)")
        case .loading:
            // The chunk never finished: it is not run again, and bestAttempt is not called.
            return Delivery(
                reason: .init(kind: .load, message: DeliveryResult.Reason.loadMessage(.limit(.time), script: script, limits, cause: cause)),
                original: true, warning: "the script's chunk did not stop at the deadline; \(abandoned)")
        case .didReceive:
            return Delivery(
                reason: DeliveryResult.Reason.time(cause, .didReceive), original: false,
                warning: "didReceive did not stop at the deadline; \(abandoned), and bestAttempt was not called: the content is delivered as the script left it")
        case .readBack:
            return Delivery(
                reason: DeliveryResult.Reason.time(cause, .readBack), original: false,
                warning: "reading userInfo back after didReceive did not stop at the deadline; \(abandoned), and bestAttempt was not called: the content is delivered as the script left it, its userInfo as last read back")
        case .bestAttempt(let reason):
            return Delivery(
                reason: reason, original: false,
                warning: "bestAttempt did not return within \(DeliveryResult.Reason.ms(limits.bestAttemptTime)) ms; \(abandoned): the content is delivered as it stood")
        }
    }
}
