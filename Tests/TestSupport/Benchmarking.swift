import Foundation

/// The one switch for measurements: `PUSHSCRIPT_BENCHMARK=1` runs the benchmark suites and
/// prints the figures tests measure on the way (use a release build for figures worth quoting:
/// `PUSHSCRIPT_BENCHMARK=1 swift test -c release --filter Benchmarks`).
public enum Benchmarking {
    /// The environment variable.
    public static let variable = "PUSHSCRIPT_BENCHMARK"

    /// Whether this run measures.
    public static var isOn: Bool { ProcessInfo.processInfo.environment[variable] == "1" }
}
