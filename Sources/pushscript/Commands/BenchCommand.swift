import Foundation
import ScriptBundles
import ScriptHost
import Synchronization

/// `pushscript bench SCRIPT PAYLOAD [-n N]`: latency and throughput of the pipeline.
enum BenchCommand: Command {
    static let name = "bench"
    static let summary = "latency and throughput of the pipeline for one payload"
    static let description = """
        usage: pushscript bench SCRIPT PAYLOAD [-n N] [--concurrency C] [--native RULE] [options]

        Delivers PAYLOAD through SCRIPT N times on one host, after a warm-up of up to 100
        deliveries, and prints the latency of one delivery (p50, p99, mean, max), the
        throughput, and how the deliveries ended. The options of 'pushscript run' apply.
        Figures from a debug build say little: build for release with
        'swift build -c release --static-swift-stdlib' and run
        '.build/release/pushscript bench SCRIPT PAYLOAD'.
        """
    static let count = PositiveOption("-n", "N", default: 1000, help: "deliveries to time")
    static let concurrency = PositiveOption("--concurrency", "C", default: 1, help: "deliveries in flight at once")
    static let native = Option(
        "--native", "RULE",
        help: "the same deliveries with a rule written in Swift in place of",
        "SCRIPT's didReceive, to measure the script layer itself:",
        "'noop' (changes nothing) or 'rewrite' (title from",
        "userInfo.headline, \" (section)\" added to the body,",
        "threadIdentifier from userInfo.section)")
    static let options = [count.option, concurrency.option, native] + HostOptions.options()

    /// The rules `--native` names.
    static let nativeRules: [String: NativeRule] = [
        "noop": { _ in },
        "rewrite": { content in
            let section = content.userInfo["section"]?.stringValue
            if let headline = content.userInfo["headline"]?.stringValue { content.title = headline }
            content.body += " (\(section ?? "news"))"
            content.threadIdentifier = section ?? ""
        },
    ]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        let input = try DeliveryInput(a, command: name)
        let count = try a.positive(count)
        let concurrency = try a.positive(concurrency)
        let (script, request) = (input.script, input.request)
        let native = try a.value(native).map { name throws(UsageError) -> NativeRule in
            guard let rule = nativeRules[name] else {
                throw UsageError("pushscript bench: --native \(name) is not a rule; give noop or rewrite")
            }
            return rule
        }
        var configuration = input.configuration
        // Every delivery may attach files; none is wanted once it is timed.
        let attachments = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-bench-\(UUID().uuidString)", isDirectory: true)
        configuration.attachmentDirectory = attachments
        defer { try? FileManager.default.removeItem(at: attachments) }
        let host = input.host(configuration)
        let installed = try HostOptions.installedScripts(a, command: name, baseline: .script(script)) { event in
            printError(HostOptions.message(for: event, command: "bench"))
        }
        defer { installed?.flush() }
        #if DEBUG
        printError("pushscript bench: this is a debug build; for figures worth quoting run 'swift build -c release --static-swift-stdlib' and '.build/release/pushscript bench'")
        #endif

        let warmUp = min(count, 100)
        _ = await deliveries(warmUp, concurrency: concurrency, host: host, request: request, script: script, installed: installed, native: native)
        let start = ContinuousClock.now
        let samples = await deliveries(count, concurrency: concurrency, host: host, request: request, script: script, installed: installed, native: native)
        let elapsed = ContinuousClock.now - start

        let report = BenchReport(samples: samples, elapsed: elapsed)
        let what = a.value(Self.native).map { "the native rule \($0)" } ?? script.name
        print("bench: \(count) deliveries of \(what), concurrency \(concurrency), after \(warmUp) warm-up")
        print(report.latencyLine)
        print(report.throughputLine)
        print(report.outcomesLine)
        return .success
    }

    /// Runs `count` deliveries, `concurrency` at a time; returns each one's latency and end.
    private static func deliveries(
        _ count: Int, concurrency: Int, host: ScriptHost, request: NotificationRequest, script: Script,
        installed: InstalledScripts?, native: NativeRule?
    ) async -> [BenchReport.Sample] {
        let next = Ticket()
        return await withTaskExecutorPreference(host.deliveryExecutor) {
          await withTaskGroup(of: [BenchReport.Sample].self) { group in
            for _ in 0..<min(concurrency, count) {
                group.addTask {
                    var samples: [BenchReport.Sample] = []
                    while next.take() < count {
                        let start = ContinuousClock.now
                        let result = if let native {
                            await host.deliver(request, native: native)
                        } else if let installed {
                            await host.deliver(request, from: installed)
                        } else {
                            await host.deliver(request, script: .script(script))
                        }
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
}

/// Hands out numbers 0, 1, 2, … to the workers of a bench.
private final class Ticket: Sendable {
    private let counter = Atomic<Int>(0)
    func take() -> Int { counter.add(1, ordering: .relaxed).oldValue }
}
