import Testing
@testable import ScriptTesting

/// The global reads and writes of `source`, as `read NAME@LINE` / `write NAME@LINE` /
/// `field G.F@LINE` / `setfield G.F@LINE`.
private func uses(_ source: String) throws -> [String] {
    try LuaScopeScanner.scan(Array(source.utf8)).uses.compactMap { use -> String? in
        switch use {
        case .read(let name, let line): "read \(name)@\(line)"
        case .write(let name, let line): "write \(name)@\(line)"
        case .fieldRead(let global, let field, let line): "field \(global).\(field)@\(line)"
        case .fieldWrite(let global, let field, let line): "setfield \(global).\(field)@\(line)"
        case .moduleField(let module, let via, let field, let line): "module \(module) \(via).\(field)@\(line)"
        case .moduleFieldWrite(let module, let field, let line): "setmodule \(module).\(field)@\(line)"
        case .listArgument(let callee, _, let argument, _, let line): "list \(callee)#\(argument)@\(line)"
        case .contentField: nil
        }
    }
}

@Suite("Lua scope scanner")
struct LuaScopeScannerTests {
    @Test func parametersAndLocalsAreNotGlobals() throws {
        let source = """
            function didReceive(request, content)
              local url = content.userInfo.pic_url
              local a, b <const> = 1, 2
              return url, a, b, request
            end
            """
        #expect(try uses(source) == ["write didReceive@1"])
    }

    @Test func typoOfAParameterIsAGlobalRead() throws {
        let source = """
            function didReceive(request, content)
              local url = conent.userInfo.pic_url
            end
            """
        #expect(try uses(source) == ["write didReceive@1", "read conent@2", "field conent.userInfo@2"])
    }

    @Test func localIsInScopeOnlyAfterItsStatement() throws {
        #expect(try uses("local x = x") == ["read x@1"])
        #expect(try uses("local x = 1\nlocal x = x") == [])
    }

    @Test func localsEndWithTheirBlock() throws {
        let source = """
            do local inner = 1 end
            print(inner)
            if true then local y = 1 else local z = y end
            """
        #expect(try uses(source) == ["read print@2", "read inner@2", "read y@3"])
    }

    @Test func upvaluesOfNestedFunctionsAreLocals() throws {
        let source = """
            local counter = 0
            local function bump()
              return function() counter = counter + 1; return counter end
            end
            """
        #expect(try uses(source) == [])
    }

    @Test func localFunctionSeesItselfButLocalAssignedFunctionDoesNot() throws {
        #expect(try uses("local function f(n) return f(n - 1) end") == [])
        #expect(try uses("local g = function(n) return g(n - 1) end") == ["read g@1"])
    }

    @Test func forVariablesAreLocalToTheLoop() throws {
        let source = """
            for i = 1, n do print(i) end
            for k, v in pairs(t) do local _ = k .. v end
            return i, k
            """
        #expect(try uses(source) == ["read n@1", "read print@1", "read pairs@2", "read t@2", "read i@3", "read k@3"])
    }

    @Test func numericForLimitsAreOutsideTheLoopScope() throws {
        #expect(try uses("for i = i, 10 do end") == ["read i@1"])
    }

    @Test func repeatUntilSeesTheBlocksLocals() throws {
        #expect(try uses("repeat local done = true until done") == [])
    }

    @Test func methodsHaveSelf() throws {
        let source = """
            local M = {}
            function M:greet(name) return self.prefix .. name end
            function M.plain() return self end
            """
        #expect(try uses(source) == ["read self@3"])
    }

    @Test func functionNamesWriteGlobalsOrFields() throws {
        #expect(try uses("function helper() end") == ["write helper@1"])
        #expect(try uses("function string.trim(s) return s end") == ["read string@1", "setfield string.trim@1"])
        #expect(try uses("function a.b.c() end") == ["read a@1", "field a.b@1"])
    }

    @Test func assignmentsWriteGlobals() throws {
        let source = """
            local t = {}
            x, t.y, z = 1, 2, w
            """
        #expect(try uses(source) == ["read w@2", "write x@2", "write z@2"])
    }

    @Test func globalEnvironmentAccessIsTheGlobal() throws {
        let source = """
            _G.answer = 42
            return _ENV.answer, _G["other"], _ENV
            """
        #expect(try uses(source) == ["write answer@1", "read answer@2", "read other@2"])
    }

    @Test func aLocalEnvHidesFreeNames() throws {
        let source = """
            local function sandboxed(_ENV)
              return missing
            end
            local _ENV = {print = print}
            x = 1
            """
        let scan = try LuaScopeScanner.scan(Array(source.utf8))
        #expect(scan.replacesEnvironment)
        #expect(try uses(source) == ["read print@4"])
    }

    @Test func tableConstructorKeysAreNotVariables() throws {
        #expect(try uses("local t = {title = body, [key] = 1, 'x'}") == ["read body@1", "read key@1"])
    }

    @Test func moduleFieldsAreRecorded() throws {
        #expect(try uses("local s = json.decod(x)") == ["read json@1", "field json.decod@1", "read x@1"])
        #expect(try uses("local s = string.format('%d', 1):upper()") == ["read string@1", "field string.format@1"])
    }

    @Test func callsWithStringAndTableArguments() throws {
        #expect(try uses("log.info 'hi'\ncategories.register{identifier = id}") == [
            "read log@1", "field log.info@1", "read categories@2", "field categories.register@2", "read id@2",
        ])
    }

    @Test func commentsStringsAndLongBracketsAreSkippedAndLinesCounted() throws {
        let source = """
            --[==[ a long
            comment with x = y ]==]
            local s = [[
            not code: z = w
            ]] .. "escaped \\" quote y" -- line comment q
            return undefinedName
            """
        #expect(try uses(source) == ["read undefinedName@6"])
    }

    @Test func labelsAndGotoAreNotVariables() throws {
        #expect(try uses("for i = 1, 2 do if i then goto continue end ::continue:: end") == [])
    }

    @Test func varargsAndOperators() throws {
        let source = "local function f(...) local a = select('#', ...) // 2 ~ 1 << 3; return not a, -a, #a end"
        #expect(try uses(source) == ["read select@1"])
    }

    @Test func setmetatableOnTheEnvironmentIsNoticed() throws {
        #expect(try LuaScopeScanner.scan(Array("setmetatable(_G, {__index = function() end})".utf8)).changesEnvironment)
        #expect(try !LuaScopeScanner.scan(Array("setmetatable({}, {})".utf8)).changesEnvironment)
    }

    @Test func unfinishedInputThrows() {
        #expect(throws: LuaSyntaxProblem.self) { try LuaScopeScanner.scan(Array("function f(".utf8)) }
        #expect(throws: LuaSyntaxProblem.self) { try LuaScopeScanner.scan(Array("local s = 'open".utf8)) }
    }
}
