#if !os(Linux)
#if canImport(Darwin)
import Darwin
#endif

/// This process's resident memory where no current figure can be read portably: the peak
/// (`getrusage`'s `ru_maxrss`, bytes on Darwin), which a metric of memory reports as the most
/// it has been.
enum ResidentMemory {
    /// The most resident bytes so far; 0 when they cannot be read.
    static func bytes() -> Int {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
        return Int(usage.ru_maxrss)
    }
}
#endif
