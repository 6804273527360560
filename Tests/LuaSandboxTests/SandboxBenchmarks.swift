import CLuaSandbox
import CLuaSandboxTesting
import Foundation
import TestSupport
import Testing
@testable import LuaSandbox

/// Costs of the sandbox, printed when `PUSHSCRIPT_BENCHMARK=1` (use a release build:
/// `PUSHSCRIPT_BENCHMARK=1 swift test -c release --filter SandboxBenchmarks`).
@Suite(.serialized, .enabled(if: Benchmarking.isOn))
struct SandboxBenchmarks {
    static func time(_ iterations: Int, _ body: () -> Void) -> Double {
        let start = ContinuousClock.now
        for _ in 0..<iterations { body() }
        return (ContinuousClock.now - start).milliseconds * 1000 / Double(iterations)
    }

    @Test func creatingAState() throws {
        _ = try LuaSandbox()
        let us = Self.time(2000) { _ = try? LuaSandbox() }
        print("benchmark: create a sandboxed state: \(String(format: "%.1f", us)) µs")
        #expect(us > 0)
    }

    @Test func runningACachedChunkInAFreshEnvironment() throws {
        let sandbox = try LuaSandbox()
        sandbox.arm(RunLimits(cpuTime: .seconds(100), memoryBytes: 64 << 20, deadline: nil))
        guard case .compiled(let chunk) = sandbox.compile("function didReceive(r, c) end", chunkName: "b.lua") else { return }
        let us = Self.time(20000) {
            let env = sandbox.makeEnvironment()!
            _ = sandbox.run(chunk, in: env)
            _ = sandbox.call("didReceive", in: env, arguments: [])
            sandbox.release(env)
        }
        print("benchmark: fresh environment + cached chunk + handler call: \(String(format: "%.1f", us)) µs")
        #expect(us > 0)
    }

    @Test func hookOverheadOnATightLoop() throws {
        try Self.compareWithStock("2e8-iteration loop", "local x = 0 for i = 1, 2e8 do x = x + i end")
    }

    @Test func chargingOverheadInThePatternMatcher() throws {
        // Millions of matcher steps, each charged: the clocks are read as rarely as the hook's.
        try Self.compareWithStock("backtracking find", "local s = ('a'):rep(3000) for i = 1, 40 do s:find('.-b') end")
    }

    @Test func copyingInStringRep() throws {
        try Self.compareWithStock("string.rep of 4 MB", "for i = 1, 50 do local s = string.rep('x', 4e6) end")
    }

    @Test func chargedStringFunctionsInATightLoop() throws {
        // string.byte is charged for its arguments before it runs: the price of one C call.
        try Self.compareWithStock("1e7 calls of s:byte(i)", "local s = 'hello world' local n = 0 for i = 1, 1e7 do n = n + s:byte(i % 10 + 1) end")
    }

    static func compareWithStock(_ name: String, _ source: String) throws {
        let sandbox = try LuaSandbox()
        func sandboxed() -> Double {
            let start = ContinuousClock.now
            _ = runScript(source, in: sandbox, limits: RunLimits(cpuTime: .seconds(100), memoryBytes: 8 << 20, deadline: .after(.seconds(100))))
            return (ContinuousClock.now - start).milliseconds
        }
        func plain() -> Double {
            let start = ContinuousClock.now
            _ = source.withCString { pss_testing_run_plain($0, strlen($0)) }
            return (ContinuousClock.now - start).milliseconds
        }
        _ = plain()
        _ = sandboxed()
        let p = (0..<3).map { _ in plain() }.min()!
        let s = (0..<3).map { _ in sandboxed() }.min()!
        print("benchmark: \(name): stock \(String(format: "%.0f", p)) ms, sandboxed \(String(format: "%.0f", s)) ms, overhead \(String(format: "%.1f", (s / p - 1) * 100)) %")
        #expect(p > 0 && s > 0)
    }
}
