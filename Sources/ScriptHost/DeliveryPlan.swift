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

    /// After the job returned with how `didReceive` ended (its `bestAttempt`, if any, ran in
    /// the same job).
    static func afterJob(_ end: MainPhase.End) -> Step {
        switch end {
        case .completed: return .deliver(reason: nil, original: false, warning: nil)
        case .load(let message): return .deliver(reason: .init(kind: .load, message: message), original: true, warning: nil)
        case .failed(let reason): return .deliver(reason: reason, original: false, warning: nil)
        }
    }

    /// After the host gave the job up at `stage`, stuck past its deadline and grace.
    static func afterAbandonment(at stage: Stage, script: String, limits: ScriptLimits) -> Step {
        let stuck = "the script did not stop at the deadline; its Lua state was abandoned"
        switch stage {
        case .loading:
            // The chunk never finished: it is not run again for a bestAttempt.
            return .deliver(
                reason: .init(kind: .load, message: Reasons.loadMessage(.limit(.time), script: script, limits)),
                original: true, warning: stuck)
        case .waiting, .didReceive:
            return .bestAttemptInFreshState(Reasons.limit(.time, limits))
        case .bestAttempt(let reason):
            return .deliver(
                reason: reason, original: false,
                warning: "bestAttempt did not return within \(Reasons.ms(limits.bestAttemptTime)) ms; the content is delivered as it stood")
        }
    }

    /// After the fresh state's `bestAttempt` was given up too.
    static func afterFreshBestAttemptAbandoned(_ limits: ScriptLimits) -> String {
        "bestAttempt did not return within \(Reasons.ms(limits.bestAttemptTime)) ms; the content is delivered as it stood"
    }
}

/// The messages of reasons and host warnings about limits.
enum Reasons {
    static func limit(_ kind: LimitKind, _ limits: ScriptLimits) -> DeliveryResult.Reason {
        switch kind {
        case .cpu:
            return .init(kind: .cpu, message: "the script used more than its \(ms(limits.cpuTime)) ms of CPU")
        case .memory:
            return .init(kind: .memory, message: "the script's Lua state needed more than \(mib(limits.memoryBytes)) of memory")
        case .time:
            return .init(kind: .time, message: "the deadline of \(ms(limits.time)) ms came before didReceive returned")
        }
    }

    static func bestAttemptLimit(_ kind: LimitKind, _ limits: ScriptLimits) -> String {
        switch kind {
        case .cpu: return "it used more than its \(ms(limits.bestAttemptCPUTime)) ms of CPU"
        case .memory: return "it needed more than its \(mib(limits.bestAttemptMemoryHeadroom)) of extra memory"
        case .time: return "it ran longer than its \(ms(limits.bestAttemptTime)) ms"
        }
    }

    static func loadMessage(_ status: RunStatus, script: String, _ limits: ScriptLimits) -> String {
        switch status {
        case .error(let message): return message
        case .limit(.time): return "\(script) did not load: the deadline of \(ms(limits.time)) ms came while its chunk ran"
        case .limit(let kind): return "\(script) did not load: \(limit(kind, limits).message)"
        case .completed, .missing: return "\(script) did not load"
        }
    }

    static func ms(_ d: Duration) -> String {
        let v = d.milliseconds
        return v == v.rounded() ? String(Int(v)) : String(v)
    }

    static func mib(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
