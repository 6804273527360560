import Testing
@testable import LuaSandbox

/// Where the sandbox used to differ from stock Lua 5.4 without a reason: each expectation is
/// what stock Lua 5.4.4 (Debian's liblua5.4) gives for the same code.
@Suite struct StockCompatibilityTests {
    @Test func arithmeticOnNumericStringsConvertsThem() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result('10' + 1) result('10' * 2) result(-'2') result('7' // 2) result('2' ^ 3)
            result('10' % 3) result(1 + '0x10') result(' 3 ' - '1.5')
            result(select(2, pcall(function() return 'abc' + 1 end)))
            local v = setmetatable({}, {__add = function(a, b) return 'mm:' .. a end})
            result('x' + v)
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [
            .integer(11), .integer(20), .integer(-2), .integer(3), .number(8.0), .integer(1), .integer(17),
            .number(1.5), .text("test.lua:3: attempt to add a 'string' with a 'number'"), .text("mm:x"),
        ])
    }

    /// A run's string table is made on its first method of a string (or on getmetatable("")),
    /// not with the environment: the methods are the library's whatever the script did to the
    /// global `string` before, and the table is the one `string` gives.
    @Test func stringMethodsBeforeTheGlobalIsReadAreTheLibrarys() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            string = {}
            result(('ab'):upper()) result(('ab'):len())
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.text("AB"), .integer(2)])
        let (second, given) = r.run("""
            local methods = getmetatable('').__index
            result(methods == string) result(methods.upper('x'))
            string.shout = function(s) return s:upper() .. '!' end
            result(('hi'):shout())
            """)
        #expect(second == .completed, "\(second)")
        #expect(given == [.boolean(true), .text("X"), .text("HI!")])
        let (third, fresh) = r.run("result(('hi').shout) result(('hi'):upper()) result(getmetatable('').__index == string)")
        #expect(third == .completed, "\(third)")
        #expect(fresh == [.nil, .text("HI"), .boolean(true)])
    }

    @Test func functionsAddedToStringAreMethodsInThatRunOnly() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            function string.trim(s) return (s:gsub('^%s+', ''):gsub('%s+$', '')) end
            result(('  hi  '):trim())
            string.upper = function() return 'replaced' end
            result(('x'):upper())
            string = nil
            result(('y'):rep(2))
            result(load("return ('z'):trim()", 'c', 't', {})())
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.text("hi"), .text("replaced"), .text("yy"), .text("z")])
        // the next run has its own string table: neither the new method nor the replacement
        let (next, after) = r.run("result(('x').trim) result(('x'):upper()) result(string.trim)")
        #expect(next == .completed, "\(next)")
        #expect(after == [.nil, .text("X"), .nil])
    }

    @Test func getmetatableOfAStringShowsTheRunsStringTable() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local mt = getmetatable('')
            result(mt.__index == string) result(rawequal(mt, getmetatable('abc')))
            result(type(mt.__add)) result(mt.__add('2', 3))
            mt.__index.shout = function(s) return s:upper() .. '!' end
            result(('hey'):shout())
            local keys = {} for k in pairs(mt) do keys[#keys + 1] = k end table.sort(keys)
            result(table.concat(keys, ' '))
            result(select(2, pcall(function() mt.__index = {} end)))
            result(select(2, pcall(function() mt.__add = print end)))
            result(('abc'):upper() .. ('1' + 1))
            result(select(2, pcall(setmetatable, '', {})))
            """)
        #expect(status == .completed, "\(status)")
        #expect(values.count == 10)
        #expect(Array(values.prefix(5)) == [.boolean(true), .boolean(true), .text("function"), .integer(5), .text("HEY!")])
        #expect(values.dropFirst(5).first == .text("__add __div __idiv __index __mod __mul __pow __sub __unm"))
        // the shared metatable cannot change, and the error says why
        let refusal = "the string metatable cannot be changed (strings are shared by every request); add methods to 'string' instead"
        #expect(values.dropFirst(6).first == .text("test.lua:8: " + refusal))
        #expect(values.dropFirst(7).first == .text("test.lua:9: " + refusal))
        #expect(values.dropFirst(8).first == .text("ABC2"))
        #expect(values.last?.stringValue?.contains("table expected, got string") == true, "\(values.last ?? .nil)")
        let (next, after) = r.run("result(('x').shout) result(getmetatable('').__index == string)")
        #expect(next == .completed, "\(next)")
        #expect(after == [.nil, .boolean(true)])
    }

    @Test func libraryFunctionsCalledFromCAreNamedAsStockNamesThem() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(select(2, pcall(string.format, '%d', 'x')))
            result(select(2, pcall(string.rep, 'x', 'y')))
            result(select(2, pcall(string.byte, {})))
            result(select(2, pcall(string.find, 'x', {})))
            result(select(2, pcall(table.sort, {1, 2}, 5)))
            result(select(2, pcall(table.concat, 1)))
            result(select(2, pcall(math.floor, 'a')))
            result(select(2, pcall(setmetatable, 1)))
            result(select(2, pcall(function() return string.format('%d', 'x') end)))
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [
            .text("bad argument #2 to 'string.format' (number expected, got string)"),
            .text("bad argument #2 to 'string.rep' (number expected, got string)"),
            .text("bad argument #1 to 'string.byte' (string expected, got table)"),
            .text("bad argument #2 to 'string.find' (string expected, got table)"),
            .text("bad argument #2 to 'table.sort' (function expected, got number)"),
            .text("bad argument #1 to 'table.concat' (table expected, got number)"),
            .text("bad argument #1 to 'math.floor' (number expected, got string)"),
            .text("bad argument #1 to 'setmetatable' (table expected, got number)"),
            .text("test.lua:9: bad argument #2 to 'format' (number expected, got string)"),
        ])
    }

    @Test func tableConcatNamesTheBadValueAs54Does() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(select(2, pcall(table.concat, {{}})))
            result(select(2, pcall(table.concat, {'a', 'b', true}, ',')))
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [
            .text("invalid value (table) at index 1 in table for 'concat'"),
            .text("invalid value (boolean) at index 3 in table for 'concat'"),
        ])
    }

    @Test func stringRepRefusesWhatStockRefusesAsAnError() throws {
        // 2^31 bytes and more: a plain error pcall catches, not the memory limit
        let r = try Recorder()
        let (status, values) = r.run("""
            result(select(2, pcall(string.rep, 'x', 1 << 31)))
            result(select(2, pcall(string.rep, 'ab', 1 << 30)))
            result(select(2, pcall(string.rep, 'a', 1 << 30, 'b')))
            result('still running')
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [
            .text("resulting string too large"), .text("resulting string too large"),
            .text("resulting string too large"), .text("still running"),
        ])
        // just under 2^31 bytes is not refused: it does not fit the memory limit
        #expect(r.run("string.rep('x', (1 << 31) - 1)").0 == .limit(.memory))
    }

    @Test func xpcallHandlerErrorsEndAsStockDoes() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            result(select(2, xpcall(error, error)))
            local n = 0
            result(select(2, xpcall(error, function(m)
              n = n + 1
              if n == 1 then error('again', 0) end
              return 'handled ' .. tostring(m)
            end, 'first')))
            result(select(2, xpcall(error, function(m) error({}) end)))
            result(select('#', xpcall(error, function(m) return m, 2 end, 'e')))
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [
            .text("error in error handling"), .text("handled again"), .text("error in error handling"),
            .integer(2),
        ])
    }

    @Test func gsubThatReplacesNothingReturnsItsSubject() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local s = string.rep('xuxu', 20)
            local same = function(t) return string.format('%p', t) == string.format('%p', s) end
            result(same((s:gsub('y', 'z')))) result(same((s:gsub('x', function() end))))
            result(same((s:gsub('x', {})))) result(same((s:gsub('x', 'x'))))
            result(same((s:gsub('x', function() return 'x' end))))
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [.boolean(true), .boolean(true), .boolean(true), .boolean(false), .boolean(false)])
    }

    @Test func loadSaysWhatStockSaysOfAModeAndWhyBinaryChunksFail() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local function pieces(s) local i = 0 return function() i = i + 1 return s:sub(i, i) end end
            result(select(2, load('return 1', 'c', 'b')))
            result(select(2, load(pieces('return 1'), 'c', 'b')))
            result(select(2, load('', 'c', 'b')))
            result(select(2, load('\\27Lua')))
            result(select(2, load(pieces('\\27Lua'), 'c', 'bt')))
            result(load('return 7', 'c', 'bt')())
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [
            .text("attempt to load a text chunk (mode is 'b')"), .text("attempt to load a text chunk (mode is 'b')"),
            .text("attempt to load a text chunk (mode is 'b')"),
            .text("attempt to load a binary chunk (only text chunks can be loaded)"),
            .text("attempt to load a binary chunk (only text chunks can be loaded)"), .integer(7),
        ])
    }

    @Test func osTimeReadsAndNormalizesItsTableAsStockDoes() throws {
        // os.time is guarded (it charges numeric strings among the fields): same reads, same writes
        let r = try Recorder()
        let (status, values) = r.run("""
            local t = {year = 2005, month = 1, day = 1, hour = 1, min = 0, sec = -3602}
            os.time(t)
            result(table.concat({t.year, t.month, t.day, t.hour, t.min, t.sec, t.yday, t.wday}, ' '))
            result(select(2, pcall(os.time, {year = 2000})))
            result(select(2, pcall(os.time, {year = 'x', month = 1, day = 1})))
            result(os.time({year = '2000', month = 1, day = 1, hour = 0}) == os.time({year = 2000, month = 1, day = 1, hour = 0}))
            local log = {}
            local p = setmetatable({}, {
              __index = function(_, k) log[#log + 1] = 'r' .. k return ({year = 2001, month = 2, day = 3})[k] end,
              __newindex = function(t, k, v) log[#log + 1] = 'w' .. k rawset(t, k, v) end})
            os.time(p)
            result(table.concat(log, ','))
            """)
        #expect(status == .completed, "\(status)")
        #expect(values == [
            .text("2004 12 31 23 59 58 366 6"), .text("field 'month' missing in date table"),
            .text("field 'year' is not an integer"), .boolean(true),
            .text("ryear,rmonth,rday,rhour,rmin,rsec,risdst,wyear,wmonth,wday,whour,wmin,wsec,wyday,wwday,wisdst"),
        ])
    }
}
