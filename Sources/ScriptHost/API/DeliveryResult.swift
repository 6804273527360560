import NotificationModel

/// What a request delivered: the result object of SPEC section 2.
public struct DeliveryResult: Sendable {
    /// How the script's run went.
    public enum Outcome: String, Sendable, Hashable {
        /// `didReceive` returned.
        case completed
        /// The best attempt or the original content was delivered; see ``reason``.
        case fallback
    }

    /// Why a request fell back.
    public enum ReasonKind: String, Sendable, Hashable {
        /// The script did not compile, failed while its chunk ran, or has no `didReceive`.
        case load
        /// `didReceive` raised an error.
        case error
        /// The CPU budget ran out.
        case cpu
        /// The memory limit was hit.
        case memory
        /// The deadline came.
        case time
        /// The app has no script.
        case noScript = "no-script"
    }

    /// Why a request fell back: the kind and a message for a person.
    public struct Reason: Sendable, Hashable {
        /// The kind.
        public var kind: ReasonKind
        /// What happened.
        public var message: String

        /// A reason.
        public init(kind: ReasonKind, message: String) {
            self.kind = kind
            self.message = message
        }
    }

    /// How long and how much the run took.
    public struct Stats: Sendable, Hashable {
        /// CPU time the script's threads used, in milliseconds.
        public var cpuMs: Double
        /// Wall-clock time of the whole request, from its start to the end of its last phase
        /// (`afterDelivery`'s, when it ran), in milliseconds.
        public var wallMs: Double
        /// When the content was handed over, in milliseconds from the request's start.
        public var deliveredMs: Double
        /// The most bytes the Lua state held during the request.
        public var memoryPeakBytes: Int

        /// Stats; `deliveredMs` is `wallMs` when not given (nothing ran after delivery).
        public init(cpuMs: Double, wallMs: Double, deliveredMs: Double? = nil, memoryPeakBytes: Int) {
            self.cpuMs = cpuMs
            self.wallMs = wallMs
            self.deliveredMs = deliveredMs ?? wallMs
            self.memoryPeakBytes = memoryPeakBytes
        }
    }

    /// Completed or fallback.
    public var outcome: Outcome
    /// Present with ``Outcome/fallback`` only.
    public var reason: Reason?
    /// Whether the script asked for the notification not to be shown.
    public var suppressed: Bool
    /// The content delivered (for a suppressed notification: what the script left).
    public var content: NotificationContent
    /// The script's and the host's log entries.
    public var logs: [LogEntry]
    /// Time and memory.
    public var stats: Stats
    /// What the script API's modules recorded for the result (posts, registered categories),
    /// each written by its module in its place; see ``posts``, ``categories``.
    package var parts = ResultParts()
    /// The script that answered; nil when none ran (no script, or one that could not be read).
    public var script: ScriptIdentity?

    /// A result; the modules' parts (``posts``, ``categories``) empty.
    public init(
        outcome: Outcome, reason: Reason?, suppressed: Bool = false, content: NotificationContent,
        logs: [LogEntry] = [], stats: Stats, script: ScriptIdentity? = nil
    ) {
        self.outcome = outcome
        self.reason = reason
        self.suppressed = suppressed
        self.content = content
        self.logs = logs
        self.stats = stats
        self.script = script
    }
}
