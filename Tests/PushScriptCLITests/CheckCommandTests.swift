import Foundation
import TestSupport
import Testing

@Suite("pushscript check")
struct CheckCommandTests {
    @Test func typosOfReadsAndWritesAreWarnedWithTheirLines() async throws {
        let dir = try folder(["rules.lua": """
            -- rules for the news app
            local M = {}
            function didReceive(request, content)
              local url = conent.userInfo.pic_url
              for i, v in ipairs(request.locales) do log.info("%d %s", i, v) end
              local function helper(n) if n > 0 then return helper(n - 1) end end
              x = helper(3)
              function M:label() return self, y end
              local data = json.decod(url)
            end
            """])
        let run = try await CLI.run(["check", "rules.lua"], in: dir)
        #expect(run.lines == [
            "rules.lua:4: warning: read of unknown global 'conent'",
            "rules.lua:7: warning: write of global 'x' (make it local)",
            "rules.lua:8: warning: read of unknown global 'y'",
            "rules.lua:9: warning: read of unknown field 'json.decod'; did you mean 'json.decode'?",
        ])
        #expect(run.status == 0)
        #expect(run.stderr == "1 file, 4 warnings\n")
    }

    @Test func scopesLocalsUpvaluesForVariablesAndEnv() async throws {
        let dir = try folder(["scopes.lua": """
            local cache = {}
            local function remember(key, value) cache[key] = value end
            local Formatter = {}
            function Formatter:title(text) return self.prefix .. text end
            function Formatter.new(prefix) return setmetatable({prefix = prefix}, {__index = Formatter}) end
            function didReceive(request, content)
              local f = Formatter.new("» ")
              for i = 1, #request.locales do remember(i, request.locales[i]) end
              for key, value in pairs(cache) do content.body = content.body .. key .. value end
              repeat local done = true until done
              do local inner = 1 end
              content.title = f:title(content.title) .. tostring(inner)
              _ENV.bestAttempt = function(c, reason) c.body = reason.message end
              _G.counter = 1
            end
            """])
        let run = try await CLI.run(["check", "scopes.lua"], in: dir)
        #expect(run.lines == [
            "scopes.lua:12: warning: read of unknown global 'inner'",
            "scopes.lua:14: warning: write of global 'counter' (make it local)",
        ])
        #expect(run.status == 0)
    }

    @Test func compileErrorAndMissingHandlerAreErrors() async throws {
        let dir = try folder([
            "broken.lua": "function didReceive(request, content)\n  content.title = = 1\nend\n",
            "nohandler.lua": "local function helper() end\nfunction bestAttempt(content, reason) end\n",
            "good.lua": "function didReceive(request, content) end\n",
        ])
        let run = try await CLI.run(["check", "good.lua", "broken.lua", "nohandler.lua"], in: dir)
        #expect(run.status == 1)
        #expect(run.lines.count == 2)
        #expect(run.lines.first?.hasPrefix("broken.lua:2: ") == true)
        #expect(run.lines.first?.contains("near '='") == true)
        #expect(run.lines.last == "nohandler.lua: error: no didReceive function")
        #expect(run.stderr == "3 files, 2 errors\n")

        let clean = try await CLI.run(["check", "good.lua"], in: dir)
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
        #expect(clean.stderr == "1 file, no findings\n")
    }

    @Test func unterminatedStringIsACompileError() async throws {
        let dir = try folder(["open.lua": "function didReceive(r, c)\n  c.title = \"open\nend\n"])
        let run = try await CLI.run(["check", "open.lua"], in: dir)
        #expect(run.status == 1)
        #expect(run.lines.count == 1)
        #expect(run.lines.first?.hasPrefix("open.lua:2: unfinished string") == true)
    }

    @Test func unreadableFileExitsTwo() async throws {
        let dir = try folder(["good.lua": "function didReceive(request, content) end\n"])
        let run = try await CLI.run(["check", "good.lua", "missing.lua"], in: dir)
        #expect(run.status == 2)
        #expect(run.stderr.hasPrefix("pushscript check: cannot read script "))
        #expect(run.stderr.contains("missing.lua"))
        #expect(run.stderr.split(separator: "\n").count == 2)
        #expect(run.stderr.hasSuffix("\n2 files, 1 unreadable, no findings\n"))
    }
}

@Suite("pushscript check: modules")
struct CheckModulesTests {
    @Test func requiredModulesAreFoundAndCheckedUnderTheirOwnNames() async throws {
        let dir = try folder([
            "rules.lua": """
                local util = require "lib.util"
                local shared = require("shared")
                local providers = require "pushscript.providers"
                local missing = require 'nowhere'
                function didReceive(request, content) content.title = util.name .. shared.name end
                local standard = {require "utf8", require("string"), require "coroutine"}
                """,
            "lib/util.lua": """
                local text = require "text"
                counter = 1
                return {name = text.upper(nam)}
                """,
            "text.lua": "return {upper = string.upper}",
            "library/shared.lua": #"return {name = "shared"}"#,
        ])
        let run = try await CLI.run(["check", "rules.lua", "--lib", "library"], in: dir)
        #expect(run.lines == [
            "rules.lua:4: error: module 'nowhere' not found: no file '\(dir.path)/nowhere.lua', '\(dir.path)/library/nowhere.lua'; put nowhere.lua beside the script or in a --lib folder",
            "lib/util.lua:2: warning: write of global 'counter' (make it local)",
            "lib/util.lua:3: warning: read of unknown global 'nam'",
        ], "\(run)")
        #expect(run.status == 1)

        let bad = try folder(["rules.lua": #"local x = require "../secret" function didReceive() end"#])
        let refused = try await CLI.run(["check", "rules.lua"], in: bad)
        #expect(refused.lines == [#"rules.lua:1: error: bad module name '../secret': '..' is not allowed; use letters, digits, '_' and '-' in parts joined by single dots, like "lib.util""#])
        #expect(refused.status == 1)
    }

    @Test func aModuleThatDoesNotCompileIsAnErrorAndALibraryMustBeAFolder() async throws {
        let dir = try folder(["rules.lua": #"local m = require "broken" function didReceive() end"#, "broken.lua": "return {"])
        let run = try await CLI.run(["check", "rules.lua"], in: dir)
        #expect(run.lines == ["broken.lua:1: unexpected symbol near <eof>"], "\(run)")
        #expect(run.status == 1)
        let usage = try await CLI.run(["check", "rules.lua", "--lib", "nowhere"], in: dir)
        #expect(usage.status == 2)
        #expect(usage.stderr == "pushscript check: --lib nowhere is not a folder; give a folder of .lua modules\n")
    }
}
