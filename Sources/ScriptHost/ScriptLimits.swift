/// The limits a script runs under (SPEC section 1, "Limits").
public struct ScriptLimits: Sendable, Hashable {
    /// CPU time of the script's thread for `didReceive` (and the chunk before it).
    public var cpuTime: Duration
    /// Bytes the Lua state may hold.
    public var memoryBytes: Int
    /// Wall-clock time for the whole request, downloads included; when it is up, `didReceive`
    /// is stopped wherever it is (Apple's `serviceExtensionTimeWillExpire`).
    public var time: Duration
    /// CPU time `bestAttempt` gets of its own.
    public var bestAttemptCPUTime: Duration
    /// Bytes `bestAttempt` may allocate beyond what the state holds when it starts.
    public var bestAttemptMemoryHeadroom: Int
    /// Wall-clock time `bestAttempt` gets after `didReceive` ended; the content is delivered
    /// when it returns or when this is up, whichever comes first.
    public var bestAttemptTime: Duration

    /// SPEC's defaults: 200 ms CPU, 8 MiB, 25 s; `bestAttempt` 50 ms CPU, 1 MiB more, 250 ms.
    public static let `default` = ScriptLimits(
        cpuTime: .milliseconds(200), memoryBytes: 8 << 20, time: .seconds(25))

    /// Limits with the given main budget and the default `bestAttempt` budget.
    public init(
        cpuTime: Duration, memoryBytes: Int, time: Duration,
        bestAttemptCPUTime: Duration = .milliseconds(50),
        bestAttemptMemoryHeadroom: Int = 1 << 20,
        bestAttemptTime: Duration = .milliseconds(250)
    ) {
        self.cpuTime = cpuTime
        self.memoryBytes = memoryBytes
        self.time = time
        self.bestAttemptCPUTime = bestAttemptCPUTime
        self.bestAttemptMemoryHeadroom = bestAttemptMemoryHeadroom
        self.bestAttemptTime = bestAttemptTime
    }
}
