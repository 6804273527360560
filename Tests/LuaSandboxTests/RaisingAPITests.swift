import Foundation
import Testing

/// DESIGN rule 1: a Lua error must never longjmp through a Swift frame, so no Swift file may
/// call a Lua API that raises. Only the C engine (CLuaSandbox) does.
@Suite struct RaisingAPITests {
    static let pattern = 
        #"\b(lua_error|luaL_error|luaL_check[a-z]*|luaL_arg[a-z]*|luaL_argerror|luaL_typeerror|lua_yieldk?|luaL_tolstring|lua_call|lua_callk|lua_concat|lua_gettable|lua_settable|lua_getfield|lua_setfield|lua_getglobal|lua_setglobal|lua_geti|lua_seti|lua_len|lua_compare|lua_arith|luaL_len|luaL_dostring|luaL_dofile|lua_newuserdata[a-z]*|lua_createtable|lua_newtable|lua_pushstring|lua_pushlstring|lua_pushfstring)\s*\("#

    static var raising: Regex<AnyRegexOutput> { try! Regex(pattern) }

    @Test func noSwiftFileCallsARaisingLuaAPI() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var offenders: [String] = []
        var scanned = 0
        for directory in ["Sources", "Tests"] {
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(directory), includingPropertiesForKeys: nil)
            while let url = enumerator?.nextObject() as? URL {
                guard url.pathExtension == "swift", url.lastPathComponent != "RaisingAPITests.swift" else { continue }
                scanned += 1
                let text = try String(contentsOf: url, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains("lua") && line.contains(Self.raising) {
                    offenders.append("\(url.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(scanned > 10)
        #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
    }

    @Test func thePatternCatchesWhatItMustCatch() {
        #expect("  luaL_checkinteger(L, 1)".contains(Self.raising))
        #expect("lua_error(L)".contains(Self.raising))
        #expect("lua_pushstring (L, s)".contains(Self.raising))
        #expect(!"pss_compile(context, src)".contains(Self.raising))
    }
}
