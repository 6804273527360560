import LuaSandbox

/// The reasons a request falls back for a limit or a load failure, and the host's warnings
/// about `bestAttempt`'s limits: the result owns their wording.
extension DeliveryResult.Reason {
    /// The reason for a limit that stopped `didReceive`.
    static func limit(_ kind: LimitKind, _ limits: ScriptLimits) -> Self {
        switch kind {
        case .cpu:
            return .init(kind: .cpu, message: "the script used more than its \(ms(limits.cpuTime)) ms of CPU")
        case .memory:
            return .init(kind: .memory, message: "the script's Lua state needed more than \(mib(limits.memoryBytes)) of memory")
        case .time:
            return .init(kind: .time, message: "the deadline of \(ms(limits.time)) ms came before didReceive returned")
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

    /// The message of a `load` reason: the script named `script` did not load with `status`.
    static func loadMessage(_ status: RunStatus, script: String, _ limits: ScriptLimits) -> String {
        switch status {
        case .error(let message): return message
        case .limit(.time): return "\(script) did not load: the deadline of \(ms(limits.time)) ms came while its chunk ran"
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
