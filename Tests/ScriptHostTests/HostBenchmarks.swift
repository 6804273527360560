import Foundation
import TestSupport
import LuaSandbox
import NotificationModel
import Testing
@testable import ScriptHost

/// Where a delivery's time goes, printed when `PUSHSCRIPT_BENCHMARK=1` (release build:
/// `PUSHSCRIPT_BENCHMARK=1 swift test -c release --filter HostBenchmarks`).
@Suite(.serialized, .enabled(if: Benchmarking.isOn))
struct HostBenchmarks {
    static func measure(_ label: String, _ n: Int = 2000, _ body: () async -> Void) async {
        for _ in 0..<100 { await body() }
        let start = ContinuousClock.now
        for _ in 0..<n { await body() }
        let us = (ContinuousClock.now - start).milliseconds * 1000 / Double(n)
        print("benchmark: \(label): \(String(format: "%.1f", us)) µs")
    }

    @Test func partsOfADelivery() async throws {
        let payload = try originalPayload(extra: #", "headline": "Rain", "summary": "Forecast""#)
        let host = ScriptHost()
        let script = Script(name: "noop.lua", source: "function didReceive(r, c) end")
        let request = NotificationRequest(payload: payload, app: "a")
        await Self.measure("deliver, no-op script") { _ = await host.deliver(request, script: .script(script)) }
        let hosted = try host.runtime(for: "a").pool(host.services).checkOut()
        await Self.measure("didReceive phase on this thread") {
            let run = RequestRun(identifier: "x", app: "a", locales: ["en"], limits: .default, content: NotificationContent(payload: payload),
                                 keys: [:])
            _ = hosted.runMain(run, script: script)
        }
        await Self.measure("remove unattached files (none)") {
            _ = try? FileManager.default.contentsOfDirectory(atPath: "/tmp/none/\(UUID().uuidString)")
        }
        let sandbox = try LuaSandbox()
        let executor = SandboxExecutor()
        await Self.measure("executor hop with a deadline") { _ = await executor.run(sandbox, deadline: .after(.seconds(5))) { _ in 1 } }
        await Self.measure("executor hop without a deadline") { _ = await executor.run(sandbox, deadline: nil) { _ in 1 } }
        await Self.measure("content from payload") { _ = NotificationContent(payload: payload) }
        let content = NotificationContent(payload: payload)
        await Self.measure("content to JSON") { _ = content.jsonValue }
        await Self.measure("UUID") { _ = UUID().uuidString }
        let result = await host.deliver(request, script: .script(script))
        await Self.measure("result JSON line") { _ = result.jsonLine() }
    }
}
