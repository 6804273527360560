import Testing
@testable import LuaSandbox

/// A slot value the host wrote (``LuaSandbox/setSlot(_:of:writing:)``) is compared in place
/// with what was written: read back only when the script changed something an encoding holds.
@Suite struct SlotBaselineTests {
    /// `{n = 1, f = 0.5, s = "x", t = true, z = json.null, list = {1, {k = "v"}}, empty = []}`
    static func write(_ writer: inout LuaValueWriter) {
        writer.beginTable(count: 7)
        writer.write(string: "n")
        writer.write(integer: 1)
        writer.write(string: "f")
        writer.write(number: 0.5)
        writer.write(string: "s")
        writer.write(string: "x")
        writer.write(string: "t")
        writer.write(boolean: true)
        writer.write(string: "z")
        writer.writeNull()
        writer.write(string: "list")
        writer.beginArray(count: 2)
        writer.write(integer: 1)
        writer.beginTable(count: 1)
        writer.write(string: "k")
        writer.write(string: "v")
        writer.write(string: "empty")
        writer.beginArray(count: 0)
    }

    /// Whether `change` (Lua statements on `u`, the slot's table) makes the slot read back.
    static func readsBack(after change: String) throws -> Bool {
        let f = try HostObjectTests.Fixture()
        let sandbox = f.recorder.sandbox
        #expect(sandbox.setSlot(0, of: f.object, writing: write))
        sandbox.arm(RunLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, deadline: nil))
        defer { sandbox.disarm() }
        guard case .compiled(let chunk) = sandbox.compile("function go(content) local u = content.userInfo \(change) end", chunkName: "rules.lua") else {
            Issue.record("compile: \(change)")
            return false
        }
        let env = try #require(sandbox.makeEnvironment())
        #expect(sandbox.run(chunk, in: env) == .completed)
        #expect(sandbox.call("go", in: env, arguments: [f.object]) == .completed, "\(change)")
        return try sandbox.readTouchedSlot(0, of: f.object).get() != nil
    }

    @Test(arguments: [
        "", "local _ = u.n + #u.list", "for k, v in pairs(u) do end", "u.n = 2 u.n = 1",
        "u.extra = nil", "setmetatable(u, {})", "u.s = 'x'",
        "u.list = {1, {k = 'v'}}",  // an equal value: the host's copy would be the same
    ])
    func readNotChanged(_ change: String) throws {
        #expect(try !Self.readsBack(after: change), "\(change)")
    }

    @Test(arguments: [
        "u.n = 2", "u.n = 1.0", "u.f = 1", "u.s = 'y'", "u.t = false", "u.z = nil", "u.z = false",
        "u.extra = 1", "u.list[2].k = 'w'", "u.list[3] = 3", "u.list[2] = nil", "u.empty[1] = 1",
        "u.list[2].extra = {}", "u.s = print",
    ])
    func changed(_ change: String) throws {
        #expect(try Self.readsBack(after: change), "\(change)")
    }
}
