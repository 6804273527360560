import Testing
@testable import LuaSandbox

/// A value written part by part reaches the state as the same value made from a ``LuaInput``.
@Suite struct ValueWriterTests {
    @Test func aWrittenValueIsTheValueMadeWhole() throws {
        let sandbox = try LuaSandbox()
        let whole = LuaInput.table(LuaTable(fields: [
            ("title", .text("Größe \"quoted\"")),
            ("count", .integer(-3)),
            ("ratio", .number(0.5)),
            ("on", .boolean(true)),
            ("none", .null),
            ("list", .table(LuaTable(array: [.integer(1), .text("two"), .table(LuaTable(array: []))]))),
        ]))
        let made = try #require(sandbox.makeValue(whole))
        let written = try #require(sandbox.makeValue { writer in
            writer.beginTable(count: 6)
            writer.write(string: "title")
            writer.write(string: "Größe \"quoted\"")
            writer.write(string: "count")
            writer.write(integer: -3)
            writer.write(string: "ratio")
            writer.write(number: 0.5)
            writer.write(string: "on")
            writer.write(boolean: true)
            writer.write(string: "none")
            writer.writeNull()
            writer.write(string: "list")
            writer.beginArray(count: 3)
            writer.write(integer: 1)
            writer.write(string: "two")
            writer.beginArray(count: 0)
        })
        let expected = try sandbox.read(made).get()
        #expect(try sandbox.read(written).get() == expected)
        guard case .table(let table) = expected else {
            Issue.record("not a table: \(expected)")
            return
        }
        #expect(table.pairs.count == 6)
    }

    @Test func anUnfinishedValueIsRefused() throws {
        let sandbox = try LuaSandbox()
        #expect(sandbox.makeValue { writer in
            writer.beginTable(count: 2)
            writer.write(string: "only a key")
        } == nil)
    }
}
