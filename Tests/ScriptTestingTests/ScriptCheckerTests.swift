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
            "rules.lua:5: warning: read of unknown field 'json.decod'; did you mean 'json.decode'?",
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
            "rules.lua:2: warning: content has no field 'titel'; did you mean 'title'?",
            "rules.lua:5: warning: content has no field 'atach'; did you mean 'attach'?",
            "rules.lua:6: warning: content has no field 'subtitel'; did you mean 'subtitle'?",
            "rules.lua:12: warning: content has no field 'boddy'; did you mean 'body'?",
        ])
    }

    @Test func bundledModulesHaveTheirFieldsKnown() async throws {
        let globals = try await ScriptHost.sandboxGlobals()
        let fields = try #require(globals.moduleFields["pushscript.providers"])
        #expect(fields.isSuperset(of: ["apply", "detect", "media", "buttons", "badge", "names"]))
        let source = """
            local providers = require "pushscript.providers"
            local p = require("pushscript.providers")
            function didReceive(request, content)
              providers.aply(request, content)
              providers.apply(request, content)
              p:detct(content.userInfo)
              require("pushscript.providers").nmes()
              local providers = {}
              providers.aply = 1
              p.extra = function() end
              p.extra()
            end
            """
        #expect(try await check(source) == [
            "rules.lua:4: warning: read of unknown field 'providers.aply' of module 'pushscript.providers'; did you mean 'providers.apply'?",
            "rules.lua:6: warning: read of unknown field 'p.detct' of module 'pushscript.providers'; did you mean 'p.detect'?",
            #"rules.lua:7: warning: read of unknown field 'require("pushscript.providers").nmes' of module 'pushscript.providers'; did you mean 'require("pushscript.providers").names'?"#,
        ])
    }

    @Test func theBundledModuleItselfChecksClean() async throws {
        let checker = try await ScriptChecker.forHost()
        for name in BundledModules.names {
            let source = try #require(BundledModules.source(of: name))
            #expect(await checker.checkModule(Script(name: name, source: source)) == [], "\(name)")
        }
    }

    @Test func listsWhereNamedOptionsAreTakenAreWarned() async throws {
        let source = """
            local providers = require "pushscript.providers"
            function didReceive(request, content)
              local f = download("https://x.example/a.jpg", {"image"})
              downloadAll({"https://x.example/a.jpg"}, {"image", "video"})
              content:attach(f, {"pic"})
              http.post("https://x.example/r", "{}", {"PUT"})
              store.increment("n", 1, {0, 9})
              categories.register{"news"}
              providers.apply(request, content, {"media"})
              download("https://x.example/a.jpg", {kinds = {"image"}, timeout = 2})
              locale.best({"de", "en"}, {"fr"})
            end
            """
        #expect(try await check(source) == [
            #"rules.lua:3: warning: download takes its options as named keys (timeout, maxBytes, kinds), not a list like {"image"}; did you mean {kinds = {"image"}}?"#,
            #"rules.lua:4: warning: downloadAll takes its options as named keys (timeout, maxBytes, kinds), not a list like {"image", "video"}; did you mean {kinds = {"image", "video"}}?"#,
            #"rules.lua:5: warning: content:attach takes its options as named keys (identifier, thumbnailHidden, thumbnailClippingRect, thumbnailTime), not a list like {"pic"}"#,
            #"rules.lua:6: warning: http.post takes its options as named keys (method, contentType, headers, timeout), not a list like {"PUT"}"#,
            "rules.lua:7: warning: store.increment takes its options as named keys (min, max), not a list",
            #"rules.lua:8: warning: categories.register takes its options as named keys (identifier, actions, options), not a list like {"news"}"#,
            #"rules.lua:9: warning: providers.apply takes its options as named keys (text, buttons, badge, media, badgeKey, timeout, partialMedia, receipts, receiptTimeout), not a list like {"media"}"#,
        ])
    }

    @Test func misspeltHandlersAreNamedWithTheOneMeant() async throws {
        let source = """
            function didRecieve(request, content) end
            function bestAttemp(content, reason) end
            afterDelivry = function(request, content) end
            function afterdelivery() end
            """
        #expect(try await check(source) == [
            "rules.lua: error: no didReceive function; 'didRecieve' is defined: did you mean 'didReceive'?",
            "rules.lua:1: warning: 'didRecieve' is not a handler, so it is never called; did you mean 'didReceive'?",
            "rules.lua:2: warning: 'bestAttemp' is not a handler, so it is never called; did you mean 'bestAttempt'?",
            "rules.lua:3: warning: 'afterDelivry' is not a handler, so it is never called; did you mean 'afterDelivery'?",
            "rules.lua:4: warning: 'afterdelivery' is not a handler, so it is never called; did you mean 'afterDelivery'?",
        ])
        #expect(try await check("function didReceive(r, c) end\nfunction afterDelivery(r, c) end\n") == [])
    }

    @Test func unknownGlobalsNameTheNearestKnownOne() async throws {
        #expect(try await check("function didReceive(r, c) downlaod(c.userInfo.u) local n = stroe.get('n') end") == [
            "rules.lua:1: warning: read of unknown global 'downlaod'; did you mean 'download'?",
            "rules.lua:1: warning: read of unknown global 'stroe'; did you mean 'store'?",
        ])
    }
}
