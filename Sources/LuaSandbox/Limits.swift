import CLuaSandbox

/// A limit that can end a run: one for each limit of the engine (`PSS_LIMITS` in
/// `pss_types.h`), which also names it.
package enum LimitKind: Sendable, Hashable, CaseIterable, RawRepresentable {
    /// The CPU budget: CPU time of the thread running the script.
    case cpu
    /// The memory limit: bytes held by the Lua state.
    case memory
    /// The wall-clock deadline.
    case time

    /// The engine's trip of this limit.
    var trip: pss_trip {
        switch self {
        case .cpu: .PSS_TRIP_CPU
        case .memory: .PSS_TRIP_MEMORY
        case .time: .PSS_TRIP_TIME
        }
    }

    /// The limit a trip of the engine is; nil for none. A limit added to the engine is a case
    /// this switch must handle before the package builds.
    init?(trip: pss_trip) {
        switch trip {
        case .PSS_TRIP_NONE: return nil
        case .PSS_TRIP_CPU: self = .cpu
        case .PSS_TRIP_MEMORY: self = .memory
        case .PSS_TRIP_TIME: self = .time
        }
    }

    /// The limit's name, as a reason's kind reports it ("cpu"): the engine's.
    package var rawValue: String { String(cString: pss_trip_name(trip)) }

    /// The limit of that name.
    package init?(rawValue: String) {
        guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = kind
    }
}

/// A point in time on the monotonic clock the sandbox checks deadlines against.
package struct Deadline: Sendable, Hashable, Comparable {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    package let nanoseconds: Int64

    /// A deadline at this many monotonic nanoseconds.
    package init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Now.
    package static func now() -> Deadline { Deadline(nanoseconds: pss_monotonic_now_ns()) }

    /// `duration` from now.
    package static func after(_ duration: Duration) -> Deadline { now().advanced(by: duration) }

    /// This deadline moved by `duration`, saturating: a deadline past the clock's range is
    /// the latest one, never a wrapped one in the past.
    package func advanced(by duration: Duration) -> Deadline {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(duration.nanoseconds)
        if overflow { return Deadline(nanoseconds: duration.nanoseconds < 0 ? .min : .max) }
        return Deadline(nanoseconds: sum)
    }

    /// The time left until the deadline (negative when past).
    package var remaining: Duration { .nanoseconds(nanoseconds - pss_monotonic_now_ns()) }

    /// Whether the deadline has passed.
    package var hasPassed: Bool { pss_monotonic_now_ns() >= nanoseconds }

    package static func < (a: Deadline, b: Deadline) -> Bool { a.nanoseconds < b.nanoseconds }
}

/// The limits of one run: armed on the thread that runs it.
package struct RunLimits: Sendable, Hashable {
    /// CPU time the run may use on its thread; `nil` for no budget.
    package var cpuTime: Duration?
    /// Bytes the Lua state may hold.
    package var memoryBytes: Int
    /// When the run is stopped; `nil` for no deadline.
    package var deadline: Deadline?

    /// Limits of a run.
    package init(cpuTime: Duration?, memoryBytes: Int, deadline: Deadline?) {
        self.cpuTime = cpuTime
        self.memoryBytes = memoryBytes
        self.deadline = deadline
    }
}

/// How a run in the sandbox ended.
package enum RunStatus: Sendable, Hashable {
    /// It returned normally.
    case completed
    /// It raised an error: the message (the error object when it is a string, else a
    /// description of its type; no script code runs to make it).
    case error(String)
    /// A limit stopped it.
    case limit(LimitKind)
    /// The function to call is not defined.
    case missing
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (ns, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return ns &+ attoseconds / 1_000_000_000
    }

    /// The duration in milliseconds, as a float.
    package var milliseconds: Double { Double(nanoseconds) / 1_000_000 }
}

/// CPU time used so far by the calling thread.
package func currentThreadCPUTime() -> Duration { .nanoseconds(pss_thread_cpu_now_ns()) }

/// The backend of the limit timers in this build: `"linux"` (timers on the thread's CPU clock
/// and a signal) or `"portable"` (a watchdog thread, no signals: the package trait
/// `PortableLimits`, or a system other than Linux).
package var limitTimersBackend: String { String(cString: pss_limits_backend()) }
