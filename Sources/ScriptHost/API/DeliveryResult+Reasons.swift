import LuaSandbox

/// The reasons a request falls back for a limit or a load failure, and the host's warnings
/// about `bestAttempt`'s limits: the result owns their wording.
extension DeliveryResult.Reason {
    /// The reason for a limit that stopped `didReceive`; a `time` stop says what ended the
    /// time (`cause`, the host's deadline when nil).
    static func limit(_ kind: LimitKind, _ limits: ScriptLimits, cause: TimeCause? = nil) -> Self {
        switch kind {
        case .cpu:
            return .init(kind: .cpu, message: "the script used more than its \(ms(limits.cpuTime)) ms of CPU")
        case .memory:
            return .init(kind: .memory, message: "the script's Lua state needed more than \(mib(limits.memoryBytes)) of memory")
        case .time:
            return time(cause ?? .deadline(limits.time), .didReceive)
        }
    }

    /// What a limit that stopped `bestAttempt` says in the host's warning.
    static func bestAttemptLimit(_ kind: LimitKind, _ limits: ScriptLimits) -> String {
        switch kind {
        case .cpu: return "it used more than its \(ms(limits.bestAttemptCPUTime)) ms of CPU"
        case .memory: return "it needed more than its \(mib(limits.bestAttemptMemoryHeadroom)) of extra memory"
        case .time: return "it ran longer than its \(ms(limits.bestAttemptTime)) ms"
        }
    }

    /// The reason for a request whose time ran out at `place`: kind `time`, and a message that
    /// says what ended the time and where.
    static func time(_ cause: TimeCause, _ place: TimePlace) -> Self {
        .init(kind: .time, message: cause.phrase(place.phrase))
    }

    /// What a limit that stopped `afterDelivery` says in the host's warning; a `time` stop says
    /// what ended the time (`cause`).
    static func afterDeliveryLimit(_ kind: LimitKind, _ limits: ScriptLimits, cause: TimeCause?) -> String {
        switch kind {
        case .cpu: return "it used more than its \(ms(limits.afterDeliveryCPUTime)) ms of CPU"
        case .memory: return "its Lua state needed more than \(mib(limits.memoryBytes)) of memory"
        case .time: return (cause ?? .deadline(limits.time)).phrase("before it returned")
        }
    }

    /// The message of a `load` reason: the script named `script` did not load with `status`
    /// while it compiled (`compiling`) or while its chunk ran; a deadline says what ended the
    /// time (`cause`, the host's deadline when nil).
    static func loadMessage(
        _ status: RunStatus, script: String, _ limits: ScriptLimits, cause: TimeCause? = nil, compiling: Bool = false
    ) -> String {
        switch status {
        case .error(let message): return message
        case .limit(.time):
            let during = compiling ? "while it compiled" : "while its chunk ran"
            return "\(script) did not load: " + (cause ?? .deadline(limits.time)).phrase(during)
        case .limit(let kind): return "\(script) did not load: \(limit(kind, limits).message)"
        case .completed, .missing: return "\(script) did not load"
        }
    }

    /// A duration in milliseconds, without a fraction when whole.
    static func ms(_ d: Duration) -> String {
        let v = d.milliseconds
        return v == v.rounded() ? String(Int(v)) : String(v)
    }

    /// A size in MiB when whole, else in bytes.
    static func mib(_ bytes: Int) -> String {
        bytes % (1 << 20) == 0 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
