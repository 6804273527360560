import Testing
@testable import LuaSandbox

@Suite struct HostObjectTests {
    /// A host object with a `title` field, a `userInfo` slot and a method.
    final class Fixture: @unchecked Sendable {
        let recorder: Recorder
        var title = "original"
        var userInfoWrites = 0
        var object: LuaReference!

        init(sandbox existing: Recorder? = nil) throws {
            recorder = try existing ?? Recorder()
            let sandbox = recorder.sandbox
            var shout = HostFunctionID(rawValue: -1)
            let cls = sandbox.defineClass(name: "content", slots: ["userInfo"], index: { [unowned self] call in
                switch call[0].stringValue {
                case "title": return .values([.text(title)])
                case "shout": return .values([.function(shout)])
                default: return .error("content has no field '\(call[0].stringValue ?? "?")'")
                }
            }, newIndex: { [unowned self] call in
                switch call[0].stringValue {
                case "title":
                    guard let s = call[1].stringValue else { return .error("title must be a string") }
                    title = s
                    return .none
                case "userInfo":
                    guard case .table = call[1] else { return .error("userInfo must be a table") }
                    userInfoWrites += 1
                    return .none
                default: return .error("content has no field '\(call[0].stringValue ?? "?")'")
                }
            })!
            shout = sandbox.addFunction { [unowned self] call in
                guard case .object = call[0] else { return .error("use content:shout()") }
                title = title.uppercased()
                return .none
            }
            object = sandbox.makeObject(of: cls, id: 7)!
            sandbox.setSlot(0, of: object, to: sandbox.makeValue(.table(LuaTable(fields: [("a", .integer(1))])))!)
        }
    }

    @Test func fieldsMethodsAndLiveSlots() throws {
        let f = try Fixture()
        let sandbox = f.recorder.sandbox
        sandbox.arm(RunLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, deadline: nil))
        guard case .compiled(let chunk) = sandbox.compile("""
            function didReceive(content)
              result(content.title)
              content.title = "new"
              content:shout()
              content.userInfo.b = 2
              local ok, err = pcall(function() content.titel = 1 end)
              result(err)
              result(pcall(function() content.userInfo = 5 end))
              content.userInfo.c = json
              result(getmetatable(content))
              result(pcall(setmetatable, content, {}))
              result(pcall(rawset, content, "title", "x"))
            end
            """, chunkName: "rules.lua") else { Issue.record("compile"); return }
        let env = sandbox.makeEnvironment()!
        #expect(sandbox.run(chunk, in: env) == .completed)
        let status = sandbox.call("didReceive", in: env, arguments: [f.object])
        #expect(status == .completed)
        let values = f.recorder.results.map { $0.first ?? .nil }
        #expect(values[0] == .text("original"))
        #expect(f.title == "NEW")
        #expect(values[1].stringValue == "rules.lua:6: content has no field 'titel'")
        #expect(values[2] == .boolean(false))
        #expect(values[3] == .boolean(false))
        #expect(values[4] == .boolean(false))
        #expect(values[5] == .boolean(false))
        let userInfo = try sandbox.readSlot(0, of: f.object).get()
        guard case .table(let t) = userInfo else { Issue.record("not a table"); return }
        #expect(t["a"] == .integer(1))
        #expect(t["b"] == .integer(2))
        #expect(f.userInfoWrites == 0)
    }

    @Test func aSlotIsReadBackOnlyWhenAScriptMayHaveChangedIt() throws {
        let f = try Fixture()
        let g = try Fixture(sandbox: f.recorder)
        let sandbox = f.recorder.sandbox
        sandbox.arm(RunLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, deadline: nil))
        guard case .compiled(let chunk) = sandbox.compile("""
            function other(content) content.title = "t" end
            function peek(content) local u = content.userInfo local n = 0 for _ in pairs(u) do n = n + 1 end end
            function change(content) content.userInfo.a = 2 end
            function restore(content) content.userInfo.a = 1 end
            function replace(content) content.userInfo = {z = 3} end
            function replaceWithSame(content) content.userInfo = {a = 1} end
            """, chunkName: "rules.lua") else { Issue.record("compile"); return }
        let env = sandbox.makeEnvironment()!
        #expect(sandbox.run(chunk, in: env) == .completed)
        #expect(sandbox.call("other", in: env, arguments: [f.object]) == .completed)
        #expect(try sandbox.readTouchedSlot(0, of: f.object).get() == nil)
        // read, not changed: what the host stored is still what it holds
        #expect(sandbox.call("peek", in: env, arguments: [f.object]) == .completed)
        #expect(try sandbox.readTouchedSlot(0, of: f.object).get() == nil)
        #expect(sandbox.call("change", in: env, arguments: [f.object]) == .completed)
        guard case .table(let changed)? = try? sandbox.readTouchedSlot(0, of: f.object).get() else {
            Issue.record("a slot the script changed is not read back"); return
        }
        #expect(changed["a"] == .integer(2))
        // changed back after the host read the change: read back, or the host would keep 2
        #expect(sandbox.call("restore", in: env, arguments: [f.object]) == .completed)
        guard case .table(let restored)? = try? sandbox.readTouchedSlot(0, of: f.object).get() else {
            Issue.record("a slot changed back is not read back"); return
        }
        #expect(restored["a"] == .integer(1))
        #expect(sandbox.call("replace", in: env, arguments: [g.object]) == .completed)
        guard case .table(let written)? = try? sandbox.readTouchedSlot(0, of: g.object).get() else {
            Issue.record("a slot the script wrote is not read back"); return
        }
        #expect(written["z"] == .integer(3))
        // an assignment is the host's business even when it assigns an equal table
        #expect(sandbox.call("replaceWithSame", in: env, arguments: [g.object]) == .completed)
        #expect((try? sandbox.readTouchedSlot(0, of: g.object).get()) != nil)
    }

    /// A lazy value the host stored in a slot is made as the script first reads the slot, in
    /// the middle of taking the slot's baseline: the baseline is still the value's encoding, so
    /// a value only read is not read back.
    @Test func aLazyValueInASlotHasATrueBaseline() throws {
        let f = try Fixture()
        let sandbox = f.recorder.sandbox
        let loader = sandbox.addFunction { _ in
            .values([.readOnly(name: "request", LuaTable(fields: [("identifier", .text("abc"))]))])
        }
        sandbox.arm(RunLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, deadline: nil))
        defer { sandbox.disarm() }
        let lazy = try #require(sandbox.makeLazyValue(named: "request", loader: loader))
        #expect(sandbox.setSlot(0, of: f.object, to: lazy))
        guard case .compiled(let chunk) = sandbox.compile("""
            function peek(content) result(content.userInfo.identifier) end
            """, chunkName: "rules.lua") else { Issue.record("compile"); return }
        let env = try #require(sandbox.makeEnvironment())
        #expect(sandbox.run(chunk, in: env) == .completed)
        #expect(sandbox.call("peek", in: env, arguments: [f.object]) == .completed)
        #expect(f.recorder.results.first == [.text("abc")])
        #expect(try sandbox.readTouchedSlot(0, of: f.object).get() == nil)
    }

    /// A class's text fields: a read, and a string written, go to its text field function with
    /// the field's index and the string's bytes as they are (invalid UTF-8 too); a write of
    /// another value goes to `newIndex` as for any key; what the function returns is raised,
    /// with the caller's position, or stops the run.
    @Test func textFieldsGoToTheirOwnFunction() throws {
        let r = try Recorder()
        let sandbox = r.sandbox
        final class Log: @unchecked Sendable { var entries: [String] = [] }
        let log = Log()
        var text = ["first", "second"]
        let cls = try #require(sandbox.defineClass(
            name: "content", textFields: ["first", "second"],
            index: { call in log.entries.append("index \(call[0].stringValue ?? "?")"); return .values([.nil]) },
            newIndex: { call in
                log.entries.append("newIndex \(call[0].stringValue ?? "?") \(call[1].typeName)")
                return .error("\(call[0].stringValue ?? "?") must be a string")
            },
            textField: { object, field, access in
                switch access {
                case .read:
                    log.entries.append("read \(object) \(field)")
                    return .values([.text(text[field])])
                case .write(let bytes):
                    log.entries.append("write \(object) \(field) \(Array(bytes))")
                    if bytes.first == UInt8(ascii: "!") { return .error("no shouting") }
                    if bytes.first == UInt8(ascii: "#") { return .kill(.time) }
                    text[field] = String(decoding: bytes, as: UTF8.self)
                    return .none
                }
            }))
        let object = try #require(sandbox.makeObject(of: cls, id: 9))
        sandbox.arm(RunLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, deadline: nil))
        defer { sandbox.disarm() }
        guard case .compiled(let chunk) = sandbox.compile("""
            function go(content)
              result(content.second)
              content.first = "a\\255"
              result(content.first)
              result(select(2, pcall(function() content.first = 5 end)))
              result(select(2, pcall(function() content.second = "!" end)))
              result(content.other)
              content.second = "#"
              result("not reached")
            end
            """, chunkName: "rules.lua") else { Issue.record("compile"); return }
        let env = try #require(sandbox.makeEnvironment())
        #expect(sandbox.run(chunk, in: env) == .completed)
        #expect(sandbox.call("go", in: env, arguments: [object]) == .limit(.time))
        #expect(r.results.map { $0.first ?? .nil } == [
            .text("second"), .text("a\u{FFFD}"),
            .text("rules.lua:5: first must be a string"), .text("rules.lua:6: no shouting"), .nil,
        ])
        #expect(log.entries == [
            "read 9 1", "write 9 0 [97, 255]", "read 9 0", "newIndex first number", "write 9 1 [33]",
            "index other", "write 9 1 [35]",
        ])
    }

    @Test func missingFunctionIsReported() throws {
        let r = try Recorder()
        let sandbox = r.sandbox
        guard case .compiled(let chunk) = sandbox.compile("x = 1", chunkName: "a.lua") else { return }
        let env = sandbox.makeEnvironment()!
        let (status, types) = sandbox.run(chunk, in: env, typesOf: GlobalNames(["x", "didReceive", "x"]))
        #expect(status == .completed)
        #expect(types == ["number", "nil", "number"])
        #expect(sandbox.call("didReceive", in: env, arguments: []) == .missing)
    }

    /// The types a run reports are what the chunk left, read only when it returned.
    @Test func aRunTellsTheTypesOfWhatItDefined() throws {
        let sandbox = try Recorder().sandbox
        guard case .compiled(let defines) = sandbox.compile("function f() end; t = {}; s = 'x'", chunkName: "a.lua"),
              case .compiled(let fails) = sandbox.compile("g = 1; error('no')", chunkName: "b.lua")
        else { Issue.record("did not compile"); return }
        let names = GlobalNames(["f", "t", "s", "g", "absent"])
        let env = sandbox.makeEnvironment()!
        let (defined, types) = sandbox.run(defines, in: env, typesOf: names)
        #expect(defined == .completed)
        #expect(types == ["function", "table", "string", "nil", "nil"])
        let (failed, none) = sandbox.run(fails, in: env, typesOf: names)
        guard case .error = failed else { Issue.record("\(failed)"); return }
        #expect(none == ["nil", "nil", "nil", "nil", "nil"])
    }
}
