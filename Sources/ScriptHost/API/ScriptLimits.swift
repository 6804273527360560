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
    /// CPU time `afterDelivery` gets of its own; its wall-clock time is what is left of ``time``
    /// (and of the system's deadline) when the content has been handed over.
    public var afterDeliveryCPUTime: Duration

    /// SPEC's defaults: 200 ms CPU, 8 MiB, 25 s; `bestAttempt` 50 ms CPU, 1 MiB more, 250 ms;
    /// `afterDelivery` 50 ms CPU.
    public static let `default` = ScriptLimits(
        cpuTime: .milliseconds(200), memoryBytes: 8 << 20, time: .seconds(25))

    /// Limits with the given main budget and the default `bestAttempt` and `afterDelivery`
    /// budgets.
    public init(
        cpuTime: Duration, memoryBytes: Int, time: Duration,
        bestAttemptCPUTime: Duration = .milliseconds(50),
        bestAttemptMemoryHeadroom: Int = 1 << 20,
        bestAttemptTime: Duration = .milliseconds(250),
        afterDeliveryCPUTime: Duration = .milliseconds(50)
    ) {
        self.cpuTime = cpuTime
        self.memoryBytes = memoryBytes
        self.time = time
        self.bestAttemptCPUTime = bestAttemptCPUTime
        self.bestAttemptMemoryHeadroom = bestAttemptMemoryHeadroom
        self.bestAttemptTime = bestAttemptTime
        self.afterDeliveryCPUTime = afterDeliveryCPUTime
    }

    /// The bytes a request may record for its result besides its content and log — the bodies
    /// and headers of its posts, the categories it registers, its attachments and their
    /// options: a quarter of ``memoryBytes``, at least 64 KiB. Past it, `http.post`,
    /// `categories.register` and `content:attach` refuse.
    public var recordBytes: Int { max(memoryBytes / 4, 64 << 10) }
}
