import Foundation
import NotificationModel
import ScriptHost
import Testing

/// `types/pushscript.lua`, the editor's definitions of the script API.
private func typeDefinitions() throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: root.appendingPathComponent("types/pushscript.lua"), encoding: .utf8)
}

/// Whether the definitions declare the global `name` (`name = …` or `function name(`).
private func declaresGlobal(_ name: String, in text: String) -> Bool {
    text.split(separator: "\n").contains { $0.hasPrefix("\(name) = ") || $0.hasPrefix("function \(name)(") }
}

@Suite("Type definitions")
struct TypeDefinitionTests {
    /// Lua's own globals that the sandbox keeps; lua-language-server knows them already.
    static let standard: Set<String> = [
        "_G", "_VERSION", "assert", "error", "ipairs", "next", "pairs", "pcall", "select", "tonumber", "tostring", "type",
        "xpcall", "rawequal", "rawlen", "rawget", "rawset", "setmetatable", "getmetatable", "load", "print",
        "string", "table", "math", "utf8", "coroutine", "os",
    ]

    @Test func everyHostGlobalAndItsFieldsAreDefined() async throws {
        let text = try typeDefinitions()
        let globals = try await ScriptHost.sandboxGlobals()
        for name in globals.names.subtracting(Self.standard) {
            #expect(declaresGlobal(name, in: text), "types/pushscript.lua lacks the global '\(name)'")
            for field in globals.fields[name] ?? [] {
                let declared = text.contains("function \(name).\(field)(") || text.contains("\n\(name).\(field) = ")
                #expect(declared, "types/pushscript.lua lacks '\(name).\(field)'")
            }
        }
    }

    @Test func everyModuleOfTheSpecIsDefined() throws {
        let text = try typeDefinitions()
        for name in ["download", "downloadAll", "categories", "locale", "json", "base64", "hex", "crypto", "keys", "hooks", "store", "log", "didReceive", "bestAttempt"] {
            #expect(declaresGlobal(name, in: text), "\(name)")
        }
        for function in ["categories.has", "categories.get", "categories.list", "categories.register", "categories.remove", "categories.localized",
                         "locale.best", "json.decode", "json.encode", "base64.encode", "base64.decode", "hex.encode", "hex.decode",
                         "crypto.decrypt", "crypto.sha256", "crypto.hmacSHA256", "keys.get", "store.get", "store.set",
                         "store.increment", "log.debug", "log.info", "log.warn", "log.error"] {
            #expect(text.contains("function \(function)("), "\(function)")
        }
        #expect(text.contains("\njson.null = "))
    }

    @Test func everyContentFieldAndMethodIsDefined() throws {
        let text = try typeDefinitions()
        for field in ContentField.names {
            #expect(text.contains("---@field \(field) "), "content.\(field)")
        }
        for method in ["attach", "removeAttachments", "suppress"] {
            #expect(text.contains("function Content:\(method)("), "content:\(method)")
        }
        for field in ["identifier", "app", "content", "locales"] {
            #expect(text.contains("---@field \(field) "), "request.\(field)")
        }
        #expect(text.hasPrefix("---@meta"))
        #expect(text.contains("\"workspace.library\""))
    }

    @Test func everyFieldOfABundledModuleIsDefined() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let globals = try await ScriptHost.sandboxGlobals()
        #expect(!globals.moduleFields.isEmpty)
        for (module, fields) in globals.moduleFields {
            // pushscript.providers → types/pushscript/providers.lua, declaring `local providers = {}`
            let file = root.appendingPathComponent("types/" + module.replacingOccurrences(of: ".", with: "/") + ".lua")
            let text = try String(contentsOf: file, encoding: .utf8)
            let table = String(module.split(separator: ".").last ?? "")
            #expect(text.hasPrefix("---@meta \(module)"), "\(file.path)")
            for field in fields {
                #expect(text.contains("function \(table).\(field)(") || text.contains("\n\(table).\(field) = "), "\(file.lastPathComponent) lacks '\(table).\(field)'")
            }
        }
    }
}
