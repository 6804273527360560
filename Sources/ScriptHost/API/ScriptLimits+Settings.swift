/// One limit as the command line and fixtures set it: a whole number of milliseconds or MiB.
public enum LimitSetting: String, CaseIterable, Sendable {
    /// The CPU budget of `didReceive`, in milliseconds (`--cpu-ms`, `limits.cpuMs`).
    case cpuMs
    /// The memory limit of the Lua state, in MiB (`--memory-mb`, `limits.memoryMB`).
    case memoryMB
    /// The deadline of the whole request, in milliseconds (`--time-ms`, `limits.timeMs`).
    case timeMs

    /// The largest value taken: an hour of CPU, 64 GiB, a day. Anything larger is a mistake
    /// (it would wrap, or turn the limit off) and is refused.
    public var maximum: Int64 {
        switch self {
        case .cpuMs: return 3_600_000
        case .memoryMB: return 65_536
        case .timeMs: return 86_400_000
        }
    }

    /// The range taken, as a message says it.
    public var range: String {
        switch self {
        case .cpuMs: return "a whole number of milliseconds from 1 to \(maximum) (an hour)"
        case .memoryMB: return "a whole number of MiB from 1 to \(maximum) (64 GiB)"
        case .timeMs: return "a whole number of milliseconds from 1 to \(maximum) (a day)"
        }
    }
}

extension ScriptLimits {
    /// Sets one limit; `false` (and nothing set) when `value` is out of the setting's range.
    public mutating func set(_ setting: LimitSetting, to value: Int64) -> Bool {
        guard value >= 1, value <= setting.maximum else { return false }
        switch setting {
        case .cpuMs: cpuTime = .milliseconds(value)
        case .memoryMB: memoryBytes = Int(value) << 20
        case .timeMs: time = .milliseconds(value)
        }
        return true
    }
}
