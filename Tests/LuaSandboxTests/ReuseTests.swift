import Testing
@testable import LuaSandbox

/// A state is reused request after request (DESIGN, speed and memory): whatever a request
/// makes in it and lets go of must not stay behind.
@Suite(.serialized) struct ReuseTests {
    /// One app's state with the kinds of values a request makes: host functions, a registered
    /// module, a class of host objects with a slot.
    final class App: @unchecked Sendable {
        let sandbox: LuaSandbox
        let content: HostClass
        let chunk: CompiledChunk
        var title = ""

        init() throws {
            sandbox = try LuaSandbox()
            sandbox.register("echo") { call in .values(call.arguments.map(LuaInput.init)) }
            sandbox.register(value: .table(LuaTable(fields: [
                ("config", .table(LuaTable(fields: [("n", .integer(0)), ("list", .table(LuaTable(array: [])))]))),
            ])), as: "data")
            sandbox.register(value: .readOnly(name: "fixed", LuaTable(fields: [("y", .integer(2))])), as: "fixed")
            var titleID = HostFunctionID(rawValue: -1)
            content = sandbox.defineClass(name: "content", slots: ["userInfo"], index: { call in
                call[0].stringValue == "shout" ? .values([.function(titleID)]) : .values([.text("title")])
            }, newIndex: { _ in .none })!
            guard case .compiled(let chunk) = sandbox.compile("""
                function didReceive(request, content)
                  local t = echo({request.identifier, content.title, {1, 2, {}}, nested = {deep = {}}})
                  content.userInfo.seen = (content.userInfo.seen or 0) + #t
                  content:shout()
                  data.config.n = data.config.n + 1
                  data.config.list[#data.config.list + 1] = request.identifier
                  rawset(fixed, 'y', request.identifier)
                  local s = string.rep('x', 1000, ',') .. request.identifier
                  local co = coroutine.wrap(function() coroutine.yield(s) end) co()
                  pcall(error, {s})
                  assert(load('return ...'))(s)
                  s:gsub('x', {x = 'y'})
                end
                """, chunkName: "app.lua") else { throw SandboxError(message: "compile") }
            self.chunk = chunk
            titleID = sandbox.addFunction { [unowned self] _ in
                title = title.uppercased()
                return .none
            }
        }

        /// One request: a fresh environment, the request's values, the handler, the releases.
        func request(_ i: Int) -> Bool {
            sandbox.arm(RunLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, deadline: nil))
            defer { sandbox.disarm() }
            guard let env = sandbox.makeEnvironment(), sandbox.run(chunk, in: env) == .completed,
                  let request = sandbox.makeValue(.readOnly(name: "request", LuaTable(fields: [("identifier", .text("id-\(i)"))]))),
                  let object = sandbox.makeObject(of: content, id: Int32(i)),
                  let userInfo = sandbox.makeValue(.lockedCopy(LuaTable(fields: [("k", .text("v"))])))
            else { return false }
            sandbox.setSlot(0, of: object, to: userInfo)
            sandbox.release(userInfo)
            let status = sandbox.call("didReceive", in: env, arguments: [request, object])
            let readBack = sandbox.readSlot(0, of: object)
            let extra = sandbox.compile("return \(i)", chunkName: "extra.lua")
            if case .compiled(let c) = extra { sandbox.release(c) }
            sandbox.release(object)
            sandbox.release(request)
            sandbox.release(env)
            guard case .success(.table(let t)) = readBack else { return false }
            return status == .completed && t["seen"] == .integer(3)
        }
    }

    @Test func aReusedStateDoesNotGrowRequestAfterRequest() throws {
        let app = try App()
        for i in 0..<200 { #expect(app.request(i)) }
        app.sandbox.collectGarbage()
        let settled = app.sandbox.memoryUsed
        var failed = 0
        for i in 200..<3200 where !app.request(i) { failed += 1 }
        app.sandbox.collectGarbage()
        let after = app.sandbox.memoryUsed
        #expect(failed == 0)
        // A registry reference kept per request would add 16 bytes each (48 KB here); an
        // environment, kilobytes each.
        #expect(after <= settled + 2048, "\(settled) bytes after 200 requests, \(after) after 3200")
    }
}
