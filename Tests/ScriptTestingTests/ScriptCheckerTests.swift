import ScriptHost
import Testing
@testable import ScriptTesting

/// The lines `pushscript check` prints for `source` named `rules.lua`.
private func check(_ source: String) async throws -> [String] {
    let checker = try await ScriptChecker.forHost()
    return await checker.check(Script(name: "rules.lua", source: source)).map { $0.line(file: "rules.lua") }
}

@Suite("Script checker")
struct ScriptCheckerTests {
    @Test func sandboxGlobalsComeFromARealEnvironment() async throws {
        let globals = try await ScriptHost.sandboxGlobals()
        for name in ["_G", "_VERSION", "pairs", "string", "download", "downloadAll", "log", "json", "store", "categories", "locale"] {
            #expect(globals.names.contains(name), "\(name)")
        }
        #expect(globals.names.contains("require"))
        for name in ["io", "package", "debug", "dofile", "loadfile", "collectgarbage", "__pushscript_module"] {
            #expect(!globals.names.contains(name), "\(name)")
        }
        #expect(globals.fields["string"]?.contains("format") == true)
        #expect(globals.fields["string"]?.contains("dump") == false)
        #expect(globals.fields["os"] == ["time", "clock", "date", "difftime"])
        #expect(globals.fields["json"]?.isSuperset(of: ["encode", "decode", "null"]) == true)
    }

    @Test func cleanScriptHasNoFindings() async throws {
        let source = """
            local M = {}
            function M:label(n) return self and n end
            function didReceive(request, content)
              local file, err = download(content.userInfo.pic_url or "https://x/y.jpg", {kinds = {"image"}})
              if file then content:attach(file) else log.warn("no picture: %s", err) end
              for _, loc in ipairs(request.locales) do print(loc) end
              content.badge = store.increment("badge")
            end
            function bestAttempt(content, reason) content.body = content.body .. reason.kind end
            """
        #expect(try await check(source) == [])
    }

    @Test func typosOfReadsAndWritesAreWarned() async throws {
        let source = """
            function didReceive(request, content)
              local title = content.title

              local url = conent.userInfo.pic_url
              local data = json.decod(url)

              x = 1
              helper()
            end
            """
        #expect(try await check(source) == [
            "rules.lua:4: warning: read of unknown global 'conent'",
            "rules.lua:5: warning: read of unknown field 'json.decod'",
            "rules.lua:7: warning: write of global 'x' (make it local)",
            "rules.lua:8: warning: read of unknown global 'helper'",
        ])
    }

    @Test func aGlobalTheScriptSetsIsNotUnknownButItsWriteIsWarned() async throws {
        let source = """
            function helper() return 1 end
            function didReceive(request, content) content.badge = helper() end
            """
        #expect(try await check(source) == ["rules.lua:1: warning: write of global 'helper' (make it local)"])
    }

    @Test func removedLibraryPartsAreUnknown() async throws {
        let source = """
            function didReceive(request, content)
              io.write("x")
              local f = string.dump
              os.exit(1)
            end
            """
        #expect(try await check(source) == [
            "rules.lua:2: warning: read of unknown global 'io'",
            "rules.lua:3: warning: read of unknown field 'string.dump'",
            "rules.lua:4: warning: read of unknown field 'os.exit'",
        ])
    }

    @Test func fieldsAScriptAddsToALibraryAreKnown() async throws {
        let source = """
            function string.trim(s) return (s:gsub("^%s+", "")) end
            function didReceive(request, content) content.title = string.trim(content.title) end
            """
        #expect(try await check(source) == [])
    }

    @Test func shadowingLocalsUpvaluesAndEnv() async throws {
        let source = """
            local log = {warn = function() end}
            local cache
            local function remember(v) cache = v end
            function didReceive(request, content)
              log.wran("not the sandbox's log")
              remember(content.title)
              local _G = {}
              _G.anything = 1
              _ENV.content = nil
            end
            """
        #expect(try await check(source) == ["rules.lua:9: warning: write of global 'content' (make it local)"])
    }

    @Test func compileErrorIsLuasMessageOnItsLine() async throws {
        let lines = try await check("function didReceive(request, content)\n  content.title = = 1\nend\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("rules.lua:2: ") == true)
        #expect(lines.first?.contains("near '='") == true)
    }

    @Test func missingHandlerIsAnError() async throws {
        let findings = try await ScriptChecker.forHost().check(Script(name: "rules.lua", source: "local function helper() end\n"))
        #expect(findings.map { $0.line(file: "rules.lua") } == ["rules.lua: error: no didReceive function"])
        #expect(findings.first?.severity == .error)
    }

    @Test func handlerAssignedThroughGlobalTableCounts() async throws {
        #expect(try await check("_G.didReceive = function(request, content) end") == [])
    }

    @Test func metatableOnEnvironmentSilencesUnknownReads() async throws {
        let source = """
            setmetatable(_G, {__index = function(_, k) return k end})
            function didReceive(request, content) content.title = whatever end
            """
        #expect(try await check(source) == [])
    }

    @Test func fieldsOfAHandlersContentAreChecked() async throws {
        let source = """
            function didReceive(request, c)
              c.titel = "x"
              c.title = c.body .. c.userInfo.name
              c:attach(download("https://x.example/a.jpg"))
              c:atach(nil)
              local s = c["subtitel"]
              local function inner(c) c.anything = 1 end
              do local c = {} c.free = 1 end
              request.titel = 1
            end
            function bestAttempt(content, reason)
              content.boddy = reason.message
              content:suppress()
            end
            """
        #expect(try await check(source) == [
            "rules.lua:2: warning: content has no field 'titel'",
            "rules.lua:5: warning: content has no field 'atach'",
            "rules.lua:6: warning: content has no field 'subtitel'",
            "rules.lua:12: warning: content has no field 'boddy'",
        ])
    }
}
