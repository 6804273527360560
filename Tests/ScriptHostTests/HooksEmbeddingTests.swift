import Foundation
import ScriptHost
import Testing

/// What an app that embeds the host writes to lend a hook: ScriptHost alone is enough.
@Suite struct HooksEmbeddingTests {
    @Test func anAppRegistersAHookWithScriptHostAlone() async throws {
        let host = ScriptHost()
        host.register(hook: "unwrap") { args in
            guard case .string(let sealed)? = args.first else { throw HookError("unwrap takes a string") }
            let table: HookValue = .table([.text("bytes"): .string(sealed.reversed()), .text("count"): .integer(Int64(sealed.count))])
            return [table, .text("ok")]
        }
        #expect(try await values("local t, s = hooks.unwrap('abc') return t.bytes, t.count, s", host: host) == [.text("cba"), .integer(3), .text("ok")])
        #expect(try await values("return hooks.unwrap(1)", host: host) == [.nil, .text("unwrap takes a string")])
    }
}
