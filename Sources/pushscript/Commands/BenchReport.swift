import Foundation

/// The figures `bench` prints.
struct BenchReport {
    /// One timed delivery.
    struct Sample: Sendable {
        let latency: Duration
        /// `completed`, or `fallback (kind)`.
        let end: String
    }

    let samples: [Sample]
    let elapsed: Duration

    /// `latency: p50 0.041 ms, p99 0.083 ms, mean 0.045 ms, max 0.512 ms`.
    var latencyLine: String {
        let sorted = samples.map { milliseconds($0.latency) }.sorted()
        guard !sorted.isEmpty else { return "latency: no deliveries" }
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        return "latency: p50 \(format(percentile(sorted, 0.50))) ms, p99 \(format(percentile(sorted, 0.99))) ms, "
            + "mean \(format(mean)) ms, max \(format(sorted.last!)) ms"
    }

    /// `throughput: 22000 deliveries/s (1000 in 0.045 s)`.
    var throughputLine: String {
        let seconds = milliseconds(elapsed) / 1000
        let rate = seconds > 0 ? Double(samples.count) / seconds : 0
        return "throughput: \(Int(rate.rounded())) deliveries/s (\(samples.count) in \(format(seconds)) s)"
    }

    /// `outcomes: 1000 completed`, or each end with its count.
    var outcomesLine: String {
        var counts: [String: Int] = [:]
        for sample in samples { counts[sample.end, default: 0] += 1 }
        return "outcomes: " + counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    }

    /// The nearest-rank percentile of sorted values.
    private func percentile(_ sorted: [Double], _ p: Double) -> Double {
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    private func milliseconds(_ d: Duration) -> Double {
        let (seconds, attoseconds) = d.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    private func format(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
