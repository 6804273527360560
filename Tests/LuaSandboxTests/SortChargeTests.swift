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

    /// Every comparison of strings is charged by their length, short ones too: a million
    /// references to one string one byte under a kilobyte (where charging used to begin) took
    /// 1.2 s of CPU in one sort for a 100 ms budget.
    @Test func aSortOfStringsJustUnderAKilobyteIsStoppedAtTheBudget() throws {
        let r = try Recorder(memoryLimit: 32 << 20)
        let start = currentThreadCPUTime()
        let (status, _) = r.run("""
            local s = string.rep('a', 1023)
            local t = {}
            for i = 1, 1000000 do t[i] = s end
            table.sort(t)
            """, limits: RunLimits(cpuTime: .milliseconds(100), memoryBytes: 32 << 20, deadline: .after(.seconds(10))))
        let cpu = currentThreadCPUTime() - start
        #expect(status == .limit(.cpu))
        #expect(cpu < .milliseconds(130), "\(cpu)")
    }

    /// The sandbox's own sort (a table without a metatable, sorted by `<`) orders every shape of
    /// input as stock Lua would, keeps its elements, and raises stock's errors.
    @Test func theOwnSortOrdersEveryShapeOfInput() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local seed = 12345
            local function random(n) seed = (seed * 1103515245 + 12345) % 2147483648 return seed % n end
            local shapes = {
              function(n, i) return random(1000) end,
              function(n, i) return i end,
              function(n, i) return n - i end,
              function(n, i) return 7 end,
              function(n, i) return i <= n // 2 and i or n - i end,
              function(n, i) return random(3) end,
              function(n, i) return random(100) + 0.5 end,
              function(n, i) return "k" .. random(500) end,
            }
            local bad = 0
            for _, shape in ipairs(shapes) do
              for _, n in ipairs{0, 1, 2, 3, 11, 12, 13, 50, 257, 2000} do
                local t, counts = {}, {}
                for i = 1, n do
                  local v = shape(n, i)
                  t[i] = v
                  counts[v] = (counts[v] or 0) + 1
                end
                table.sort(t)
                if #t ~= n then bad = bad + 1 end
                for i = 2, n do if t[i] < t[i - 1] then bad = bad + 1 end end
                for i = 1, n do counts[t[i]] = counts[t[i]] - 1 end
                for _, c in pairs(counts) do if c ~= 0 then bad = bad + 1 end end
              end
            end
            result(bad)
            local nan = {}
            for i = 1, 100 do nan[i] = (i % 3 == 0) and 0/0 or i end
            local ok, err = pcall(table.sort, nan)
            result(ok or tostring(err):find("invalid order function", 1, true) ~= nil)
            result(select(2, pcall(table.sort, {3, 1, "x", 2})))
            local mixed = {3, 1.5, 2, -1, 2.0, math.maxinteger, math.mininteger, 0.25}
            table.sort(mixed)
            result(table.concat(mixed, " "))
            """)
        #expect(status == .completed)
        #expect(values.count == 4)
        #expect(values.first == .integer(0))
        #expect(values.dropFirst().first == .boolean(true))
        #expect(values.dropFirst(2).first?.stringValue?.contains("attempt to compare") == true)
        #expect(values.last == .text("-9223372036854775808 -1 0.25 1.5 2 2.0 3 9223372036854775807")
                || values.last == .text("-9223372036854775808 -1 0.25 1.5 2.0 2 3 9223372036854775807"))
    }
}
