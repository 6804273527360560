import Testing
@testable import LuaSandbox

/// A library call with megabytes of arguments is not started when the CPU budget left cannot
/// cover it: one call no check can stop would otherwise end tens of milliseconds past the
/// budget (four 7 MB numeric strings to string.char are 30 ms of conversion).
@Suite struct ChargeAheadTests {
    @Test func aBigCallIsNotStartedWhenTheBudgetLeftCannotCoverIt() throws {
        let r = try Recorder(memoryLimit: 64 << 20)
        // 56 MB of arguments: at least 28 ms of work; at most 25 ms of budget left. (A budget
        // spent down by a busy loop would depend on os.clock, the whole process's CPU time,
        // which other tests running beside this one move.) The stock call would fail fast (the
        // strings are not numbers), and pcall would catch that.
        let (status, values) = r.run("""
            local a = string.rep('a', 7000000)
            result('ready')
            local ok = pcall(string.char, a, a, a, a, a, a, a, a)
            result('caught')
            while true do end
            """, limits: RunLimits(cpuTime: .milliseconds(25), memoryBytes: 64 << 20, deadline: .after(.seconds(10))))
        #expect(status == .limit(.cpu))
        #expect(values == [.text("ready")])
    }

    @Test func aBigCallWithinTheBudgetRuns() throws {
        let r = try Recorder(memoryLimit: 64 << 20)
        let (status, values) = r.run("""
            local s = string.rep('0', 7000000) .. '65'
            result(string.char(s, s, s, s))
            """, limits: RunLimits(cpuTime: .milliseconds(2000), memoryBytes: 64 << 20, deadline: .after(.seconds(10))))
        #expect(status == .completed)
        #expect(values == [.text("AAAA")])
    }
}
