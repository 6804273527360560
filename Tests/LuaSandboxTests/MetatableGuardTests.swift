import Testing
@testable import LuaSandbox

/// A metatable's mode is what it was at setmetatable: weak keys cannot be given to a table in
/// use as a metatable by any route, and the usual class patterns still work.
@Suite struct MetatableGuardTests {
    private let refused = "cannot set __mode on a table in use as a metatable"

    private func refusedEverywhere(_ routes: [String]) throws {
        let r = try Recorder()
        for route in routes {
            let (status, values) = r.run("""
                local ok, err = pcall(function() \(route) end)
                result(ok) result(tostring(err))
                """)
            #expect(status == .completed, "\(route)")
            #expect(values.first == .boolean(false), "\(route)")
            #expect(values.last?.stringValue?.contains(refused) == true, "\(route): \(values)")
        }
    }

    @Test func weakKeysAfterSetmetatableAreRefused() throws {
        try refusedEverywhere([
            "local mt = {} setmetatable({}, mt) mt.__mode = 'k'",
            "local mt = {} setmetatable({}, mt) mt.__mode = 'v'",
            "local mt = {} setmetatable({}, mt) rawset(mt, '__mode', 'k')",
            "local mt = {} setmetatable({}, mt) load(\"__mode = 'k'\", 'x', 't', mt)()",
            "local mt = {} setmetatable({}, mt) setmetatable({}, {__newindex = mt}).__mode = 'k'",
            "setmetatable({}, _G) __mode = 'k'",
            "local mt = {} setmetatable(mt, mt) mt.__mode = 'k'",
            "local mt = {} setmetatable({}, mt) setmetatable(mt, nil) mt.__mode = 'k'",
            "local mt = {} setmetatable({}, mt) setmetatable(mt, {__index = {}}) rawset(mt, '__mode', 'k')",
            "local v = getmetatable('') setmetatable({}, v) rawset(v, '__mode', 'k')",
            """
            local mt = setmetatable({}, {__newindex = function(t, k, v) rawset(t, '__mode', 'k') end})
            setmetatable({}, mt) mt.x = 1
            """,
        ])
    }

    @Test func aModeChangedAfterSetmetatableHasNoEffect() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local mt = {__mode = 'v'}
            local t = setmetatable({}, mt)
            mt.__mode = 'k' rawset(mt, '__mode', 'kv')
            result(getmetatable(t) == mt)
            t[{}] = true
            local garbage = {}
            for i = 1, 2e5 do garbage[i % 100 + 1] = {i} end
            result(next(t) ~= nil)
            local u = setmetatable({}, {__mode = 'v'})
            u[1] = {}
            for i = 1, 2e5 do garbage[i % 100 + 1] = {i} end
            result(u[1] == nil)
            result(pcall(setmetatable, {}, mt))
            """)
        #expect(status == .completed)
        #expect(values == [.boolean(true), .boolean(true), .boolean(true), .boolean(false)])
    }

    @Test func classPatternsStillWork() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local Animal = {} Animal.__index = Animal
            function Animal.new(name) return setmetatable({name = name}, Animal) end
            local a = Animal.new('a')
            function Animal:speak() return self.name .. ' speaks' end   -- added after an instance
            result(a:speak())
            local Dog = setmetatable({}, {__index = Animal}) Dog.__index = Dog
            local d = setmetatable(Animal.new('d'), Dog)
            function Dog:wag() return self.name .. ' wags' end
            result(d:speak() .. ', ' .. d:wag())
            local Puppy = setmetatable({}, Dog) Puppy.__index = Puppy
            local p = setmetatable({name = 'p'}, Puppy)
            setmetatable(Dog, {__index = Animal, __tostring = function() return 'Dog' end})
            result(p:wag() .. ', ' .. tostring(Dog))
            result(getmetatable(p) == Puppy and getmetatable(Puppy) == Dog and getmetatable(Animal) == nil)
            local log = {}
            local Tracked = setmetatable({}, {__newindex = function(t, k, v) log[#log + 1] = k rawset(t, k, v) end})
            setmetatable({}, Tracked)
            Tracked.x = 1 Tracked[1] = 2
            result(table.concat(log, ',') .. ' ' .. rawget(Tracked, 'x'))
            local cache = setmetatable({}, {__mode = 'v', __index = function(t, k) local v = {k} rawset(t, k, v) return v end})
            result(cache.x[1] .. ' ' .. getmetatable(cache).__mode)
            local closed = 0
            do local c <close> = setmetatable({}, {__close = function() closed = closed + 1 end}) end
            result(closed)
            result(select(2, pcall(setmetatable, {}, {__gc = function() end})))
            local locked = setmetatable({}, {__metatable = 'locked'})
            result(getmetatable(locked) .. ' ' .. tostring(pcall(setmetatable, locked, {})))
            local weak = setmetatable({}, {__mode = 'v'})
            result(tostring(pcall(setmetatable, weak, {__index = {y = 7}})) .. ' ' .. weak.y)
            """)
        #expect(status == .completed)
        #expect(values.count == 10)
        #expect(values[0] == .text("a speaks"))
        #expect(values[1] == .text("d speaks, d wags"))
        #expect(values[2] == .text("p wags, Dog"))
        #expect(values[3] == .boolean(true))
        #expect(values[4] == .text("x,1 1"))
        #expect(values[5] == .text("x v"))
        #expect(values[6] == .integer(1))
        #expect(values[7].stringValue?.contains("__gc field is not allowed") == true)
        #expect(values[8] == .text("locked false"))
        #expect(values[9] == .text("true 7"))
    }

    /// A table that is its own metatable, and metamethods given to a metatable after
    /// setmetatable, behave as in stock Lua (the guard's copies follow the fields added later).
    @Test func aTableThatIsItsOwnMetatableAndLaterMetamethodsWorkAsInStockLua() throws {
        let r = try Recorder()
        let (status, values) = r.run("""
            local C = {}
            setmetatable(C, C)
            C.__index = C
            function C.greet() return 'hi' end
            local obj = setmetatable({}, C)
            result(obj.greet())
            C.__call = function(self, x) return 'called ' .. x end
            result(C(5))
            local a = {}
            setmetatable(a, a)
            a.__index = a
            result(select(2, pcall(function() return a[10] end)))
            local Base = {}
            local Derived = setmetatable({}, Base)
            local instance = setmetatable({}, Derived)
            Base.__index = function(t, k) return 'from base ' .. k end
            result(Derived.foo)
            rawset(Base, '__tostring', function() return 'Derived!' end)
            result(tostring(Derived))
            local K = setmetatable({}, {__newindex = function(t, k, v) rawset(t, k, v) end})
            setmetatable(K, K)
            K.__len = function() return 7 end
            result(#K)
            result(getmetatable(C) == C and getmetatable(Derived) == Base and getmetatable(instance) == Derived)
            result(select(2, pcall(function() C.__mode = 'k' end)))
            result(select(2, pcall(function() K.__mode = 'k' end)))
            """)
        #expect(status == .completed)
        guard values.count == 9 else {
            Issue.record("results: \(values)")
            return
        }
        #expect(values[0] == .text("hi"))
        #expect(values[1] == .text("called 5"))
        #expect(values[2].stringValue?.hasSuffix("'__index' chain too long; possible loop") == true, "\(values[2])")
        #expect(values[3] == .text("from base foo"))
        #expect(values[4] == .text("Derived!"))
        #expect(values[5] == .integer(7))
        #expect(values[6] == .boolean(true))
        #expect(values[7].stringValue?.contains(refused) == true)
        #expect(values[8].stringValue?.contains(refused) == true)
    }
}
