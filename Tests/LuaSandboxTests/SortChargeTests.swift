import Testing
@testable import LuaSandbox

/// table.sort charges the comparisons it makes in C (long strings, a C comparator, a C __lt)
/// and still sorts as stock Lua does.
@Suite struct SortChargeTests {
    @Test func sortsAsStockDoes() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local s = {}
            for i = 1, 50 do s[i] = string.rep(string.char(65 + (i * 7) % 26), 2000) .. i end
            table.sort(s)
            local ok = true
            for i = 2, #s do if s[i] < s[i - 1] then ok = false end end
            result(ok)
            local mt = {__lt = function(a, b) return a.v < b.v end}
            local t = {}
            for i = 1, 500 do t[i] = setmetatable({v = (i * 7919) % 500}, mt) end
            table.sort(t)
            ok = true
            for i = 2, #t do if t[i].v < t[i - 1].v then ok = false end end
            result(ok)
            local u = {5, 3, 9} table.sort(u, function(a, b) return a > b end) result(table.concat(u, ','))
            result(select(2, pcall(table.sort, {1, 'x', string.rep('y', 2000)})))
            result(select(2, pcall(table.sort, {1, 2}, 5)))
            """)
        #expect(status == .completed)
        #expect(values.count == 5)
        #expect(values[0] == .boolean(true))
        #expect(values[1] == .boolean(true))
        #expect(values[2] == .text("9,5,3"))
        #expect(values[3].stringValue?.contains("attempt to compare") == true)
        #expect(values[4] == .text("bad argument #2 to 'table.sort' (function expected, got number)"))
    }

    @Test func aSortOfLongStringsIsStoppedAtTheBudget() throws {
        let r = try Recorder(memoryLimit: 32 << 20)
        let (status, _) = r.run("""
            local s = string.rep('a', 4000000)
            local t = {}
            for i = 1, 400 do t[i] = s end
            table.sort(t)
            """, limits: RunLimits(cpuTime: .milliseconds(100), memoryBytes: 32 << 20, deadline: .after(.milliseconds(600))))
        #expect(status == .limit(.cpu))
    }
}
