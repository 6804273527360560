import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ScriptHost
import Synchronization

/// `serve`'s counters, written as the Prometheus text format (`--metrics FILE`).
///
/// - `pushscript_serve_deliveries_total{app, outcome}`: answers delivered
/// - `pushscript_serve_fallbacks_total{reason}`: fallbacks by reason kind
/// - `pushscript_serve_invalid_lines_total`: lines answered with an error
/// - `pushscript_serve_delivery_seconds`: a histogram of the time from a request's start to its answer
/// - `pushscript_serve_script_info{app, sha256, version}`: the script that answered an app last (1)
/// - `pushscript_serve_lua_threads`, `pushscript_serve_workers`: threads or worker processes held
/// - `pushscript_serve_resident_memory_bytes`: the process's resident memory
/// - `pushscript_serve_pending_lines`: lines read and not yet answered
final class ServeMetrics: Sendable {
    /// The histogram's upper bounds, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

    fileprivate struct DeliveryKey: Hashable {
        let app: String
        let outcome: String
    }

    /// The counts, added up.
    fileprivate struct Tally {
        var deliveries: [DeliveryKey: Int] = [:]
        var fallbacks: [String: Int] = [:]
        var invalid = 0
        var bucketCounts = [Int](repeating: 0, count: ServeMetrics.buckets.count)
        var count = 0
        var sum = 0.0
        /// The script that answered each app last, and when (so that the lanes' tallies tell
        /// which of them answered an app last; a clock read shares nothing between lanes).
        var scripts: [String: (script: ScriptIdentity, at: ContinuousClock.Instant)] = [:]

        mutating func record(app: String, outcome: String, reason: String?, script: ScriptIdentity?, seconds: Double) {
            deliveries[DeliveryKey(app: app, outcome: outcome), default: 0] += 1
            if let reason { fallbacks[reason, default: 0] += 1 }
            if let bucket = ServeMetrics.buckets.firstIndex(where: { seconds <= $0 }) { bucketCounts[bucket] += 1 }
            count += 1
            sum += seconds
            if let script { scripts[app] = (script, .now) }
        }

        mutating func add(_ other: Tally) {
            for (key, n) in other.deliveries { deliveries[key, default: 0] += n }
            for (key, n) in other.fallbacks { fallbacks[key, default: 0] += n }
            invalid += other.invalid
            for index in bucketCounts.indices { bucketCounts[index] += other.bucketCounts[index] }
            count += other.count
            sum += other.sum
            scripts.merge(other.scripts) { mine, theirs in theirs.at > mine.at ? theirs : mine }
        }
    }

    /// The counts of one lane: its own lock, which only the metrics file's writer shares, so
    /// that an answer waits on no other lane and its counters stay in the lane's cache.
    final class Lane: Sendable {
        fileprivate let state = Mutex(Tally())

        /// Counts an answer delivered for `app`.
        func record(app: String, outcome: String, reason: String?, script: ScriptIdentity?, seconds: Double) {
            state.withLock { $0.record(app: app, outcome: outcome, reason: reason, script: script, seconds: seconds) }
        }

        /// Counts a line answered with an error.
        func recordInvalid() {
            state.withLock { $0.invalid += 1 }
        }
    }

    private let lanes = Mutex<[Lane]>([])

    /// The counts of a new lane, added to every reading of the metrics.
    func lane() -> Lane {
        let lane = Lane()
        lanes.withLock { $0.append(lane) }
        return lane
    }

    /// Every lane's counts, added up.
    private var total: Tally {
        var total = Tally()
        for lane in lanes.withLock({ $0 }) { total.add(lane.state.withLock { $0 }) }
        return total
    }

    /// The gauges read at the time of writing.
    struct Gauges {
        var luaThreads: Int
        var workers: Int
        var pendingLines: Int
    }

    /// The text format of every counter and gauge.
    func render(_ gauges: Gauges) -> String {
        let s = total
        var out = ""
        func header(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        header("pushscript_serve_deliveries_total", "counter", "Answers delivered, by app and outcome.")
        for (key, n) in s.deliveries.sorted(by: { ($0.key.app, $0.key.outcome) < ($1.key.app, $1.key.outcome) }) {
            out += "pushscript_serve_deliveries_total{app=\"\(Self.escape(key.app))\",outcome=\"\(key.outcome)\"} \(n)\n"
        }
        header("pushscript_serve_fallbacks_total", "counter", "Fallbacks, by reason kind.")
        for (reason, n) in s.fallbacks.sorted(by: { $0.key < $1.key }) {
            out += "pushscript_serve_fallbacks_total{reason=\"\(reason)\"} \(n)\n"
        }
        header("pushscript_serve_invalid_lines_total", "counter", "Lines answered with an error.")
        out += "pushscript_serve_invalid_lines_total \(s.invalid)\n"
        header("pushscript_serve_delivery_seconds", "histogram", "Time from a request's start to its answer.")
        var cumulative = 0
        for (bound, n) in zip(Self.buckets, s.bucketCounts) {
            cumulative += n
            out += "pushscript_serve_delivery_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        out += "pushscript_serve_delivery_seconds_bucket{le=\"+Inf\"} \(s.count)\n"
        out += "pushscript_serve_delivery_seconds_sum \(s.sum)\n"
        out += "pushscript_serve_delivery_seconds_count \(s.count)\n"
        header("pushscript_serve_script_info", "gauge", "The script that answered an app last: its SHA-256 and bundle version.")
        for (app, (script, _)) in s.scripts.sorted(by: { $0.key < $1.key }) {
            let version = script.version.map(String.init) ?? "baseline"
            out += "pushscript_serve_script_info{app=\"\(Self.escape(app))\",sha256=\"\(script.sha256)\",version=\"\(version)\"} 1\n"
        }
        header("pushscript_serve_lua_threads", "gauge", "Lua threads held by this process.")
        out += "pushscript_serve_lua_threads \(gauges.luaThreads)\n"
        header("pushscript_serve_workers", "gauge", "Worker processes held.")
        out += "pushscript_serve_workers \(gauges.workers)\n"
        header("pushscript_serve_pending_lines", "gauge", "Lines read and not yet answered.")
        out += "pushscript_serve_pending_lines \(gauges.pendingLines)\n"
        header("pushscript_serve_resident_memory_bytes", "gauge", "Resident memory of this process.")
        out += "pushscript_serve_resident_memory_bytes \(Self.residentBytes())\n"
        return out
    }

    /// Writes `text` to `path` whole: into a file beside it, then renamed over it.
    static func writeAtomically(_ text: String, to path: String) -> Bool {
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        let wrote = AnswerOutput.writeAll(Array(text.utf8), to: descriptor)
        close(descriptor)
        guard wrote, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// This process's resident memory in bytes.
    static func residentBytes() -> Int { ResidentMemory.bytes() }

    private static func escape(_ label: String) -> String {
        label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
