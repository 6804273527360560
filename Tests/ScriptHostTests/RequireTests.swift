import Foundation
import TestSupport
import NotificationModel
import Testing
@testable import ScriptHost

/// A scratch folder with a script and its modules.
private typealias ModuleFolder = TemporaryFolder

extension TemporaryFolder {
    /// The script `rules.lua` of this folder.
    func script(_ source: String) throws -> Script {
        try Script(contentsOf: URL(fileURLWithPath: write("rules.lua", source)))
    }
}

private func deliver(_ script: Script, host: ScriptHost) async throws -> DeliveryResult {
    await host.deliver(NotificationRequest(payload: try originalPayload(), app: "com.example.app"), script: .script(script))
}

@Suite(.serialized) struct RequireTests {
    @Test func aModuleBesideTheScriptAndInASubfolderIsLoaded() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("greeting.lua", #"local M = {} function M.hello(n) return "hello " .. n end return M"#)
        try folder.write("text/upper.lua", "return function(s) return s:upper() end")
        let script = try folder.script("""
            local greeting = require "greeting"
            local upper = require "text.upper"
            function didReceive(request, content)
              content.title = upper(greeting.hello("ann"))
              content.body = tostring(require("greeting") == greeting)
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.outcome == .completed, "\(String(describing: result.reason))")
        #expect(result.content.title == "HELLO ANN")
        #expect(result.content.body == "true")
    }

    @Test func aLibraryFolderIsSearchedAfterTheScriptsFolder() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        let library = try ModuleFolder("pushscript-modules")
        try library.write("shared.lua", #"return {name = "library"}"#)
        try library.write("only.lua", #"return {name = "library only"}"#)
        try folder.write("shared.lua", #"return {name = "beside the script"}"#)
        let script = try folder.script("""
            function didReceive(request, content)
              content.title = require("shared").name
              content.body = require("only").name
            end
            """)
        let host = ScriptHost(configuration: HostConfiguration(libraryDirectories: [library.url]))
        let result = try await deliver(script, host: host)
        #expect(result.content.title == "beside the script")
        #expect(result.content.body == "library only")

        let without = try await deliver(script, host: ScriptHost())
        #expect(without.outcome == .fallback)
        #expect(without.reason?.message.contains("module 'only' not found") == true)
        #expect(without.reason?.message.hasPrefix("rules.lua:3:") == true)
    }

    /// `require` of a standard library's name gives the request's own library, as stock Lua's
    /// `package.loaded` does; a file of that name beside the script is never loaded for it.
    @Test func aStandardLibrarysNameGivesThatLibrary() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("utf8.lua", #"shadowed = true return {}"#)
        let script = try folder.script("""
            function didReceive(request, content)
              local same = require("utf8") == utf8 and require("string") == string and require("table") == table
                and require("math") == math and require("coroutine") == coroutine
              local saved = string
              string = nil
              content.title = tostring(same) .. " " .. tostring(require("string") == saved) .. " " .. tostring(shadowed)
              content.body = select("#", require("utf8")) .. " " .. require("utf8").char(72, 105)
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.outcome == .completed, "\(String(describing: result.reason))")
        #expect(result.content.title == "true true nil")
        #expect(result.content.body == "1 Hi")
    }

    /// `require` of a library stock Lua has and the sandbox withholds says so and what to use
    /// instead, even with a file of that name beside the script.
    @Test(arguments: [("os", "use the global os"), ("io", "scripts open no files"), ("debug", "log.debug"), ("package", "--lib folder")])
    func aWithheldLibraryIsAnErrorThatSaysWhatToUse(library: String, instead: String) async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("\(library).lua", #"return {}"#)
        let script = try folder.script("""
            function didReceive(request, content)
              content.title = "x"
              require("\(library)")
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.outcome == .fallback)
        let message = result.reason?.message ?? ""
        #expect(message.hasPrefix("rules.lua:3: module '\(library)' is not available in the sandbox: "), "\(message)")
        #expect(message.contains(instead), "\(message)")
    }

    /// A library the script assigns to before it ever reads it is still what `require` gives.
    @Test func aLibraryAssignedBeforeItsFirstReadIsStillRequired() async throws {
        let script = Script(name: "rules.lua", source: """
            function didReceive(request, content)
              math = "mine"
              content.title = math .. " " .. type(require("math").floor) .. " " .. tostring(require("math") == require("math"))
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.outcome == .completed, "\(String(describing: result.reason))")
        #expect(result.content.title == "mine function true")
    }

    /// A library the script read, set to nil and then assigned again is still what `require`
    /// gives: the same table, the one the string methods use.
    @Test func aLibrarySetToNilAndAssignedAgainIsStillRequired() async throws {
        let script = Script(name: "rules.lua", source: """
            function didReceive(request, content)
              local s, m = string, math
              string = nil string = "mine"
              math = nil math = 1
              content.title = tostring(require("string") == s) .. " " .. tostring(require("string") == getmetatable("").__index)
              content.body = tostring(require("math") == m) .. " " .. string .. " " .. math
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.outcome == .completed, "\(String(describing: result.reason))")
        #expect(result.content.title == "true true")
        #expect(result.content.body == "true mine 1")
    }

    @Test func aBundledModuleNeedsNoFile() async throws {
        let script = Script(name: "rules.lua", source: """
            local providers = require "pushscript.providers"
            function didReceive(request, content)
              content.title = type(providers.detect) .. " " .. tostring(providers.detect({aps = {}}))
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.outcome == .completed, "\(String(describing: result.reason))")
        #expect(result.content.title == "function nil")

        let missing = Script(name: "rules.lua", source: #"require "pushscript.nothing" function didReceive() end"#)
        let failed = try await deliver(missing, host: ScriptHost())
        #expect(failed.reason?.message.contains("module 'pushscript.nothing' not found: PushScript ships 'pushscript.providers'") == true)
    }

    @Test(arguments: [
        ("../secret", "'..' is not allowed"), ("/etc/passwd", "an absolute path"), ("a/b", "use letters, digits"),
        ("", "bad module name ''"), ("a..b", "'..' is not allowed"), (".a", "use letters"), ("a.", "use letters"),
        ("a b", "use letters"), ("a\\nb", "use letters"),
    ])
    func namesThatAreNotModuleNamesAreRefused(name: String, expected: String) async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("secret.lua", #"return "secret""#)
        let script = try folder.script("""
            function didReceive(request, content)
              local ok, err = pcall(require, "\(name)")
              content.title = tostring(ok)
              content.body = tostring(err)
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.content.title == "false")
        #expect(result.content.body.hasPrefix("bad module name"), "\(result.content.body)")
        #expect(result.content.body.contains(expected), "\(result.content.body)")
        #expect(!result.content.body.contains("\n"))
    }

    @Test func anErrorInAModuleNamesItsFileAndLine() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("lib/broken.lua", "local t = {}\nreturn t.missing.field\n")
        try folder.write("lib/syntax.lua", "local x = = 1\n")
        let script = try folder.script("""
            function didReceive(request, content)
              local ok, err = pcall(require, "lib.syntax")
              content.body = err
              require "lib.broken"
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .error)
        #expect(result.reason?.message.hasPrefix("lib/broken.lua:2: attempt to index a nil value") == true, "\(String(describing: result.reason))")
        #expect(result.content.body.contains("module 'lib.syntax' does not compile: lib/syntax.lua:1:"), "\(result.content.body)")
    }

    @Test func whatARequestSetsInAModuleIsNotSeenByTheNext() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("counter.lua", """
            local M = {count = 0}
            loadedTimes = (loadedTimes or 0) + 1
            function M.bump() M.count = M.count + 1 return M.count end
            return M
            """)
        let script = try folder.script("""
            local counter = require "counter"
            function didReceive(request, content)
              counter.bump()
              require("counter").bump()
              counter.extra = (counter.extra or 0) + 1
              content.title = counter.count .. " " .. counter.extra .. " " .. loadedTimes
            end
            """)
        let host = ScriptHost()
        for _ in 0..<3 {
            let result = try await deliver(script, host: host)
            #expect(result.content.title == "2 1 1", "\(String(describing: result.reason))")
        }
    }

    @Test func aChangedModuleIsInUseForTheNextRequest() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        let module = try folder.write("words.lua", #"return {word = "first"}"#)
        let script = try folder.script(#"function didReceive(request, content) content.title = require("words").word end"#)
        let host = ScriptHost()
        #expect(try await deliver(script, host: host).content.title == "first")
        #expect(try await deliver(script, host: host).content.title == "first")
        // Same size, within the same clock tick: the file is read again until its times settle.
        try Data(#"return {word = "again"}"#.utf8).write(to: URL(fileURLWithPath: module))
        #expect(try await deliver(script, host: host).content.title == "again")
        try Data(#"return {word = "a longer third word"}"#.utf8).write(to: URL(fileURLWithPath: module))
        #expect(try await deliver(script, host: host).content.title == "a longer third word")
    }

    @Test func aScriptDirectoryFindsModulesBesideItsScriptsAndReloadsThem() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("com.example.app.lua", #"local words = require "words" function didReceive(r, c) c.title = words.word end"#)
        let module = try folder.write("words.lua", #"return {word = "first"}"#)
        let directory = ScriptDirectory(folder.url)
        let host = ScriptHost()
        let request = NotificationRequest(payload: try originalPayload(), app: "com.example.app")
        #expect(await host.deliver(request, from: directory).content.title == "first")
        try Data(#"return {word = "second, longer"}"#.utf8).write(to: URL(fileURLWithPath: module))
        #expect(await host.deliver(request, from: directory).content.title == "second, longer")
        try Data("return {".utf8).write(to: URL(fileURLWithPath: module))
        let broken = await host.deliver(request, from: directory)
        #expect(broken.reason?.kind == .load)
        #expect(broken.reason?.message.contains("module 'words' does not compile: words.lua:1:") == true, "\(String(describing: broken.reason))")
    }

    @Test func aModuleCompilesUnderTheRequestsMemoryLimit() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        let big = "return {" + String(repeating: "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\" .. \"b\",", count: 15_000) + "}"
        try folder.write("big.lua", big)
        let script = try folder.script(#"function didReceive(request, content) require "big" end"#)
        let limits = ScriptLimits(cpuTime: .seconds(5), memoryBytes: 1 << 20, time: .seconds(10))
        let request = NotificationRequest(payload: try originalPayload(), app: "com.example.app", limits: limits)
        let result = await ScriptHost().deliver(request, script: .script(script))
        #expect(result.outcome == .fallback)
        #expect(result.reason?.kind == .memory, "\(String(describing: result.reason))")
    }

    @Test func aModuleThatRequiresItselfIsAnErrorNotARecursion() async throws {
        let folder = try ModuleFolder("pushscript-modules")
        try folder.write("loop.lua", #"return require "loop""#)
        let script = try folder.script(#"function didReceive(request, content) require "loop" end"#)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.reason?.message.contains("module 'loop' requires itself while it loads") == true, "\(String(describing: result.reason))")
    }

    @Test func theFetcherIsNotReachableFromScripts() async throws {
        let script = Script(name: "rules.lua", source: """
            function didReceive(request, content)
              content.title = tostring(__pushscript_module) .. " " .. type(require)
            end
            """)
        let result = try await deliver(script, host: ScriptHost())
        #expect(result.content.title == "nil function")
    }
}
