import Foundation
import ScriptHost
import Synchronization

/// `pushscript bench SCRIPT PAYLOAD [-n N]`: latency and throughput of the pipeline.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "latency and throughput of the pipeline for one payload"
    static let usage = """
        usage: pushscript bench SCRIPT PAYLOAD [-n N] [--concurrency C] [options]

        Delivers PAYLOAD through SCRIPT N times on one host, after a warm-up of up to 100
        deliveries, and prints the latency of one delivery (p50, p99, mean, max), the
        throughput, and how the deliveries ended. The options of 'pushscript run' apply.
        Figures from a debug build say little: build for release with
        'swift build -c release' and run '.build/release/pushscript bench SCRIPT PAYLOAD'.

        options:
          -n N                  deliveries to time (default 1000)
          --concurrency C       deliveries in flight at once (default 1)
        \(HostOptions.help())
          --help                this help
        """
    static let options = HostOptions.specs + [.value("-n"), .value("--concurrency")]

    static func run(_ a: ParsedArguments) async throws -> Int32 {
        let input = try DeliveryInput(a, command: name)
        let count = try a.value("-n").map { try HostOptions.positive($0, "-n", name) } ?? 1000
        let concurrency = try a.value("--concurrency").map { try HostOptions.positive($0, "--concurrency", name) } ?? 1
        let (script, request) = (input.script, input.request)
        var configuration = input.configuration
        // Every delivery may attach files; none is wanted once it is timed.
        let attachments = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-bench-\(UUID().uuidString)", isDirectory: true)
        configuration.attachmentDirectory = attachments
        defer { try? FileManager.default.removeItem(at: attachments) }
        let host = ScriptHost(configuration: configuration)
        #if DEBUG
        printError("pushscript bench: this is a debug build; for figures worth quoting run 'swift build -c release' and '.build/release/pushscript bench'")
        #endif

        let warmUp = min(count, 100)
        _ = await deliveries(warmUp, concurrency: concurrency, host: host, request: request, script: script)
        let start = ContinuousClock.now
        let samples = await deliveries(count, concurrency: concurrency, host: host, request: request, script: script)
        let elapsed = ContinuousClock.now - start

        let report = BenchReport(samples: samples, elapsed: elapsed)
        print("bench: \(count) deliveries of \(script.name), concurrency \(concurrency), after \(warmUp) warm-up")
        print(report.latencyLine)
        print(report.throughputLine)
        print(report.outcomesLine)
        return 0
    }

    /// Runs `count` deliveries, `concurrency` at a time; returns each one's latency and end.
    private static func deliveries(
        _ count: Int, concurrency: Int, host: ScriptHost, request: NotificationRequest, script: Script
    ) async -> [BenchReport.Sample] {
        let next = Ticket()
        return await withTaskGroup(of: [BenchReport.Sample].self) { group in
            for _ in 0..<min(concurrency, count) {
                group.addTask {
                    var samples: [BenchReport.Sample] = []
                    while next.take() < count {
                        let start = ContinuousClock.now
                        let result = await host.deliver(request, script: .script(script))
                        let latency = ContinuousClock.now - start
                        let end = result.reason.map { "fallback (\($0.kind.rawValue))" } ?? "completed"
                        samples.append(.init(latency: latency, end: end))
                    }
                    return samples
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
    }
}

/// Hands out numbers 0, 1, 2, … to the workers of a bench.
private final class Ticket: Sendable {
    private let counter = Atomic<Int>(0)
    func take() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}
