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

    /// The fields, in a buffer shared by copies until one of them changes: a result passes
    /// through the session, its promise and the caller, and a copy is one reference.
    private var fields: Fields

    /// Completed or fallback.
    public var outcome: Outcome {
        get { fields.outcome }
        set { unique().outcome = newValue }
        _modify {
            let own = unique()
            yield &own.outcome
        }
    }
    /// Present with ``Outcome/fallback`` only.
    public var reason: Reason? {
        get { fields.reason }
        set { unique().reason = newValue }
        _modify {
            let own = unique()
            yield &own.reason
        }
    }
    /// Whether the script asked for the notification not to be shown.
    public var suppressed: Bool {
        get { fields.suppressed }
        set { unique().suppressed = newValue }
        _modify {
            let own = unique()
            yield &own.suppressed
        }
    }
    /// The content delivered (for a suppressed notification: what the script left).
    public var content: NotificationContent {
        get { fields.content }
        set { unique().content = newValue }
        _modify {
            let own = unique()
            yield &own.content
        }
    }
    /// The script's and the host's log entries.
    public var logs: [LogEntry] {
        get { fields.logs }
        set { unique().logs = newValue }
        _modify {
            let own = unique()
            yield &own.logs
        }
    }
    /// Time and memory.
    public var stats: Stats {
        get { fields.stats }
        set { unique().stats = newValue }
        _modify {
            let own = unique()
            yield &own.stats
        }
    }
    /// What the script API's modules recorded for the result (posts, registered categories),
    /// each written by its module in its place; see ``posts``, ``categories``.
    package var parts: ResultParts {
        get { fields.parts }
        set { unique().parts = newValue }
        _modify {
            let own = unique()
            yield &own.parts
        }
    }
    /// The script that answered; nil when none ran (no script, or one that could not be read).
    public var script: ScriptIdentity? {
        get { fields.script }
        set { unique().script = newValue }
        _modify {
            let own = unique()
            yield &own.script
        }
    }

    /// The fields, made this copy's own first when another copy shares them.
    @inline(__always)
    private mutating func unique() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    /// The stored fields. Changed only through ``unique()``, by the one copy that holds them,
    /// so that no two threads ever see one of them change.
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var outcome: Outcome
        @exclusivity(unchecked) var reason: Reason?
        @exclusivity(unchecked) var suppressed: Bool
        @exclusivity(unchecked) var content: NotificationContent
        @exclusivity(unchecked) var logs: [LogEntry]
        @exclusivity(unchecked) var stats: Stats
        @exclusivity(unchecked) var parts: ResultParts
        @exclusivity(unchecked) var script: ScriptIdentity?

        init(
            outcome: Outcome, reason: Reason?, suppressed: Bool, content: NotificationContent, logs: [LogEntry],
            stats: Stats, parts: ResultParts, script: ScriptIdentity?
        ) {
            self.outcome = outcome
            self.reason = reason
            self.suppressed = suppressed
            self.content = content
            self.logs = logs
            self.stats = stats
            self.parts = parts
            self.script = script
        }

        func copy() -> Fields {
            Fields(
                outcome: outcome, reason: reason, suppressed: suppressed, content: content, logs: logs, stats: stats,
                parts: parts, script: script)
        }
    }

    /// A result; the modules' parts (``posts``, ``categories``) empty.
    public init(
        outcome: Outcome, reason: Reason?, suppressed: Bool = false, content: NotificationContent,
        logs: [LogEntry] = [], stats: Stats, script: ScriptIdentity? = nil
    ) {
        fields = Fields(
            outcome: outcome, reason: reason, suppressed: suppressed, content: content, logs: logs, stats: stats,
            parts: ResultParts(), script: script)
    }
}
