import CLuaSandbox
import Synchronization

/// A sandboxed Lua 5.4 state: a memory cap, and a CPU budget and a wall-clock deadline armed
/// for each run as timers of the thread that runs it, and the safe library of SPEC section 1
/// from which every run gets a fresh environment.
///
/// A sandbox is confined: one thread uses it at a time. ``SandboxExecutor`` hands it to a Lua
/// thread for a job and does not touch it while the job runs; a sandbox whose job missed its
/// deadline is abandoned, never used again, and closed by the thread that was running it.
/// Only ``cancel()`` may be called from another thread.
package final class LuaSandbox: @unchecked Sendable {
    let context: OpaquePointer
    var functions: [HostFunction] = []
    /// The text field functions of the classes defined here, by id.
    var textFieldFunctions: [TextFieldFunction] = []
    /// Where failed entry points put their message. A pointer of its own rather than a stored
    /// `pss_buffer`, so that a host function may use the sandbox while a call into Lua is in
    /// progress (an `inout` access to a stored property would last the whole call).
    let errorBuffer = UnsafeMutablePointer<pss_buffer>.allocate(capacity: 1)
    private let abandoned = Atomic<Bool>(false)

    /// Whether any run in this state was ever stopped by a limit. Such a state is not reused:
    /// ``SandboxPool`` discards it.
    package private(set) var hasHitLimit = false

    /// The default memory limit for a state: 8 MiB.
    package static let defaultMemoryLimit = 8 * 1024 * 1024

    /// Makes a state whose Lua memory may not pass `memoryLimit` bytes.
    package init(memoryLimit: Int = LuaSandbox.defaultMemoryLimit) throws(SandboxError) {
        LuaSandbox.installDispatch()
        guard let context = pss_state_new(memoryLimit, nil) else {
            errorBuffer.deallocate()
            throw SandboxError(message: "cannot create a Lua state within \(memoryLimit) bytes")
        }
        self.context = context
        pss_buffer_init(errorBuffer)
        // The state hands this pointer back to the dispatch; it lives as long as the state.
        pss_set_host(context, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        pss_state_close(context)
        pss_buffer_free(errorBuffer)
        errorBuffer.deallocate()
    }

    // MARK: Limits

    /// Arms the limits for a run on the calling thread. Clears an earlier trip.
    package func arm(_ limits: RunLimits) {
        pss_limits_arm(
            context,
            limits.cpuTime.map { max(1, $0.nanoseconds) } ?? 0,
            limits.deadline?.nanoseconds ?? 0,
            limits.memoryBytes)
    }

    /// Stops checking the CPU budget and the deadline until the next ``arm(_:)``.
    package func disarm() { pss_limits_disarm(context) }

    /// Stops the running script at its next check as if its deadline had come. Any thread.
    package func cancel() { pss_cancel(context) }

    /// CPU time the thread of the armed run has used since it was armed, read from any thread
    /// (for a run given up as stuck); nil when no run is armed.
    package var runCPUTime: Duration? {
        let ns = pss_run_cpu_ns(context)
        return ns < 0 ? nil : .nanoseconds(ns)
    }

    /// The limit that tripped in the current run, if any.
    package var trippedLimit: LimitKind? { LimitKind(trip: pss_trip_of(context)) }

    /// Records that a limit tripped while the host worked for the script.
    package func recordTrip(_ kind: LimitKind) { pss_trip_request(context, kind.trip) }

    /// Notes that a run went over a limit that the host measured itself (the CPU budget, read
    /// when a handler returned): the state is then not reused, as after any other trip.
    package func markLimitHit() { hasHitLimit = true }

    /// Bytes the Lua state holds now.
    package var memoryUsed: Int { pss_memory_used(context) }

    /// The most bytes the state held since ``resetMemoryPeak()``.
    package var memoryPeak: Int { pss_memory_peak(context) }

    /// Starts measuring the peak from what the state holds now.
    package func resetMemoryPeak() { pss_memory_peak_reset(context) }

    /// Runs a full garbage collection (no finalizer can exist, so no script code runs).
    package func collectGarbage() { pss_collect(context) }

    /// Whether a missed deadline abandoned this state: it must never be used again.
    package var isAbandoned: Bool { abandoned.load(ordering: .acquiring) }

    func markAbandoned() { abandoned.store(true, ordering: .releasing) }

    // MARK: Errors

    /// The message in the error buffer after a failed entry point.
    func takeError() -> String {
        let message = String(decoding: UnsafeBufferPointer(start: errorBuffer.pointee.data, count: errorBuffer.pointee.length), as: UTF8.self)
        errorBuffer.pointee.length = 0
        return message
    }

    /// Maps a pss status to a run status.
    func runStatus(_ status: Int32) -> RunStatus {
        switch pss_status(rawValue: UInt32(status)) {
        case PSS_OK: return .completed
        case PSS_KILLED:
            hasHitLimit = true
            return .limit(trippedLimit ?? .time)
        case PSS_MISSING: return .missing
        case PSS_UNAVAILABLE:
            hasHitLimit = true
            return .limit(.memory)
        default: return .error(takeError())
        }
    }
}

/// A failure to set up a sandbox.
package struct SandboxError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for a person.
    package let message: String

    /// An error with a message.
    package init(message: String) { self.message = message }

    package var description: String { message }
}
