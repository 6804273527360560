import Foundation
import NotificationModel
@testable import ScriptBundles
import ScriptHost
import TestSupport
import Testing

/// What serving through installed state costs a delivery, printed when `PUSHSCRIPT_BENCHMARK=1`
/// (release build: `PUSHSCRIPT_BENCHMARK=1 swift test -c release --filter InstalledScriptsBenchmarks`).
@Suite(.serialized, .enabled(if: Benchmarking.isOn))
struct InstalledScriptsBenchmarks {
    static func measure(_ label: String, _ n: Int = 20_000, _ body: () async -> Void) async {
        for _ in 0..<1000 { await body() }
        var best = Double.infinity
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<n { await body() }
            best = min(best, (ContinuousClock.now - start).milliseconds * 1000 / Double(n))
        }
        print("benchmark: \(label): \(String(format: "%.2f", best)) µs (best of 5 runs of \(n))")
    }

    @Test func servingThroughInstalledState() async throws {
        let folder = try TemporaryFolder("bundles-bench")
        let source = "function didReceive(request, content) content.title = content.title .. '!' end"
        _ = try TestBundles.installer(folder.url).install(TestBundles.bundle(version: 1, files: ["com.example.news.lua": source]), now: TestBundles.now)
        let baseline = Script(name: "com.example.news.lua", source: source)
        var configuration = HostConfiguration(stateDirectory: folder.url)
        configuration.attachmentDirectory = folder.url.appendingPathComponent("attachments")
        let host = ScriptHost(configuration: configuration)
        let installed = InstalledScripts(stateDirectory: folder.url, trust: TestBundles.trust(), baseline: .script(baseline))
        let empty = try TemporaryFolder("bundles-bench-empty")
        let none = InstalledScripts(stateDirectory: empty.url, trust: TestBundles.trust(), baseline: .script(baseline))
        let request = NotificationRequest(payload: TestBundles.payload(), app: TestBundles.app)
        let result = await host.deliver(request, from: installed)
        #expect(result.script?.version == 1)
        await Self.measure("lookup of an installed version (stat, lock)") { _ = installed.served(TestBundles.app) }
        await Self.measure("lookup with nothing installed") { _ = none.served(TestBundles.app) }
        await Self.measure("record of a delivery (counts in memory, written every 1000)") { installed.record(result, app: TestBundles.app) }
        await Self.measure("deliver, the script given") { _ = await host.deliver(request, script: .script(baseline)) }
        await Self.measure("deliver through installed state, nothing installed") { _ = await host.deliver(request, from: none) }
        await Self.measure("deliver through installed state, version 1 installed") { _ = await host.deliver(request, from: installed) }
        installed.flush()
    }
}
