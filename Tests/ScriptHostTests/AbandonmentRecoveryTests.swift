import Foundation
import LuaSandbox
import Testing
@testable import ScriptHost

/// After requests whose scripts are stopped at a short deadline (or given up on, stuck in a C
/// call), the process is back to idle within 2 s: little CPU, its memory back within 50 MB,
/// and no Lua thread still held.
@Suite(.serialized) struct AbandonmentRecoveryTests {
    /// The catalogue's cases that spend their time in one C call, the collector or the parser.
    static let cases = [
        "33_pattern_backtracking", "34_plain_find_quadratic", "35_table_move_infinite",
        "36_string_rep_empty", "37_table_sort_big", "70_weak_key_ephemeron", "71_parser_or_chain",
        "72_load_or_chain", "90_numeric_string_arith", "91_numeric_string_args",
        "92_numeric_string_os_time", "130_for_limit_numeric_string", "131_long_string_equality",
        "132_numeric_string_many_args", "170_weak_mode_after_setmetatable",
        "172_weak_mode_changed_later", "174_numeric_string_four_args", "175_sort_long_strings",
    ]

    static let attacks = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Attacks")

    static func processCPU() -> Duration {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return .seconds(ts.tv_sec) + .nanoseconds(ts.tv_nsec)
    }

    static func residentBytes() throws -> Int {
        let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8)
        let pages = Int(statm.split(separator: " ")[1]) ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Runs every case with a deadline of 40 ms and CPU to spare, so that the deadline is what
    /// stops each one, wherever it is.
    static func runAll(_ host: ScriptHost) async throws {
        let limits = ScriptLimits(cpuTime: .seconds(10), memoryBytes: 64 << 20, time: .milliseconds(40))
        for name in cases {
            let source = try String(contentsOf: attacks.appendingPathComponent(name + ".lua"), encoding: .utf8)
            let result = try await deliver(source, host: host, limits: limits, name: name + ".lua")
            #expect(result.outcome == .fallback || result.content.body == "blocked", "\(name): \(result.outcome)")
        }
    }

    @Test func theProcessIsIdleAgainWithin2sOfTheAnswers() async throws {
        let pool = LuaThreadPool(maxThreads: 8)
        let host = ScriptHost(configuration: HostConfiguration(offline: true), executor: SandboxExecutor(pool: pool))
        try await Self.runAll(host)  // warms the allocator and the pool
        try await Task.sleep(for: .seconds(2))
        let rssBefore = try Self.residentBytes()
        let threadsBefore = pool.threadCount

        try await Self.runAll(host)
        let cpuAtAnswers = Self.processCPU()
        try await Task.sleep(for: .seconds(2))
        let cpuAfter = Self.processCPU() - cpuAtAnswers
        let rssAfter = try Self.residentBytes()

        // Under 10 % of one core over the 2 s (this process's CPU alone, so others' load
        // does not count).
        #expect(cpuAfter < .milliseconds(200), "CPU in the 2 s after the answers: \(cpuAfter)")
        #expect(rssAfter - rssBefore < 50 << 20, "RSS grew by \((rssAfter - rssBefore) >> 20) MiB")
        #expect(pool.stuckCount == 0)
        // The requests run one at a time: a thread is held only while a given-up call runs on,
        // so a few threads serve them all; stuck threads piling up would pass this.
        #expect(pool.threadCount <= 4, "threads: \(threadsBefore) then \(pool.threadCount)")
    }
}
