import ScriptHost

/// How one version's deliveries ended on a device: what `bundle status` shows per version,
/// and what probation judges.
public struct DeliveryCounts: Sendable, Hashable {
    /// Deliveries.
    public var deliveries = 0
    /// Deliveries that ended `completed`.
    public var completed = 0
    /// Fallbacks by reason kind (`error`, `cpu`, `memory`, `load`, `time`, `no-script`).
    public var fallbacks: [String: Int] = [:]
    /// The first failure counted (a fallback of a kind ``ProbationRule/failureKinds`` holds):
    /// its kind and message.
    public var firstFailure: FailureNote?

    /// No deliveries.
    public init() {}

    /// The fallbacks that count as failures of the script.
    public var failures: Int {
        ProbationRule.failureKinds.reduce(0) { $0 + (fallbacks[$1.rawValue] ?? 0) }
    }

    /// Counts one delivery that ended with `reason` (nil: completed).
    public mutating func add(_ reason: DeliveryResult.Reason?) {
        deliveries += 1
        guard let reason else {
            completed += 1
            return
        }
        fallbacks[reason.kind.rawValue, default: 0] += 1
        if firstFailure == nil, ProbationRule.failureKinds.contains(reason.kind) {
            firstFailure = FailureNote(kind: reason.kind.rawValue, message: FailureNote.cut(reason.message))
        }
    }

    /// Adds another count of the same version.
    public mutating func add(_ other: DeliveryCounts) {
        deliveries += other.deliveries
        completed += other.completed
        fallbacks.merge(other.fallbacks, uniquingKeysWith: +)
        if firstFailure == nil { firstFailure = other.firstFailure }
    }
}

/// A failure as a record keeps it: the reason's kind and message (cut to 300 characters).
public struct FailureNote: Sendable, Hashable {
    /// The reason kind.
    public var kind: String
    /// The message.
    public var message: String

    /// A note.
    public init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }

    static func cut(_ message: String) -> String {
        let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 300 ? line : String(line.prefix(300)) + "…"
    }
}

/// Probation: a new version's first `probation` deliveries on a device are watched, and it is
/// rolled back when its failure rate is more than ``marginPercent`` percentage points above the
/// rate of the version it replaces (the last good one, or the baseline) on the same device.
///
/// Failures are fallbacks of kind `error`, `cpu`, `memory` and `load`: what the script did.
/// `time` (the network or the system ran out the clock) and `no-script` are not counted.
///
/// With `f` failures of the candidate, `N` its probation, and `F` failures in `D` deliveries of
/// the previous version (`F = 0, D = 1` when it has none), the candidate is rolled back as soon
/// as `100·f·D > (100·F + 10·D)·N`, that is `f/N > F/D + 10 %`: since `f` only grows, its
/// rate over the whole probation is then past the margin whatever comes next, and it goes at
/// once, before the next request. It is promoted when its `N`th delivery leaves it within the
/// margin. A previous version that failed more than 90 % of the time cannot be beaten by the
/// margin: the candidate is then always promoted.
public enum ProbationRule {
    /// The margin, in percentage points.
    public static let marginPercent = 10
    /// The fallback kinds that count as failures.
    public static let failureKinds: [DeliveryResult.ReasonKind] = [.error, .cpu, .memory, .load]

    /// What probation says after a delivery.
    public enum Verdict: Sendable, Hashable {
        /// Still watching.
        case watching
        /// Probation passed: the candidate becomes the last good version.
        case promote
        /// Too many failures: the candidate is rolled back.
        case rollBack
    }

    /// The verdict for a candidate's counts so far, its probation, and the previous version's
    /// counts.
    public static func verdict(candidate: DeliveryCounts, probation: Int, previous: DeliveryCounts) -> Verdict {
        if exceeds(failures: candidate.failures, probation: probation, previous: previous) { return .rollBack }
        return candidate.deliveries >= probation ? .promote : .watching
    }

    /// Whether `failures` out of a probation of `probation` are more than the margin above the
    /// previous version's rate.
    public static func exceeds(failures: Int, probation: Int, previous: DeliveryCounts) -> Bool {
        guard probation > 0, failures > 0 else { return false }
        var (f, d) = (previous.failures, previous.deliveries)
        if d == 0 { (f, d) = (0, 1) }
        // Large counts are scaled to keep the products within 64 bits; the rate is kept.
        if d > 1_000_000 {
            f = Int((Double(f) / Double(d) * 1_000_000).rounded())
            d = 1_000_000
        }
        return 100 * failures * d > (100 * f + marginPercent * d) * probation
    }
}

/// What probation saw when it rolled a version back: the candidate's counts and the previous
/// version's, and the first failure.
public struct ProbationRecord: Sendable, Hashable {
    /// The candidate's counts when it was rolled back.
    public var counts: DeliveryCounts
    /// Its probation length.
    public var probation: Int
    /// The version it was compared with; nil for the baseline.
    public var previousVersion: Int?
    /// That version's counts.
    public var previous: DeliveryCounts

    /// The reason as `bundle status` says it, one line.
    public var summary: String {
        let rate = Self.percent(counts.failures, counts.deliveries)
        let before = previousVersion.map { "version \($0)" } ?? "the baseline"
        let previousRate = previous.deliveries == 0 ? "no deliveries" : "\(previous.failures) of \(previous.deliveries) (\(Self.percent(previous.failures, previous.deliveries)))"
        var text = "\(counts.failures) of its first \(counts.deliveries) deliveries failed (\(rate)) in a probation of \(probation), against \(previousRate) for \(before): more than \(ProbationRule.marginPercent) points above"
        if let first = counts.firstFailure { text += "; first failure: \(first.kind): \(first.message)" }
        return text
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        guard whole > 0 else { return "0%" }
        return "\(Int((Double(part) * 100 / Double(whole)).rounded()))%"
    }
}
