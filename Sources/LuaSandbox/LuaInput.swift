/// A value the host sends into Lua: what a host function returns, what
/// ``LuaSandbox/makeValue(_:)`` and ``LuaSandbox/register(value:as:in:)`` put in the state.
///
/// Values are copied, never shared: a table becomes a new Lua table. Strings are bytes (Lua
/// strings need not be UTF-8). Integers and floats stay apart, as Lua 5.4 keeps them. Only
/// what the host can hand a script can be built: values Lua alone makes (a script's function,
/// a cycle) come back as ``LuaOutput``.
package enum LuaInput: LuaTableValue {
    /// Lua `nil`.
    case `nil`
    /// A Lua boolean.
    case boolean(Bool)
    /// A Lua integer (64-bit).
    case integer(Int64)
    /// A Lua float.
    case number(Double)
    /// A Lua string: arbitrary bytes.
    case string(LuaString)
    /// A new Lua table.
    case table(LuaTable<LuaInput>)
    /// The sandbox's JSON null (`json.null` in scripts).
    case null
    /// A host function, as a value a script can call.
    case function(HostFunctionID)
    /// A chunk compiled in this sandbox: the script gets its function, whose `_ENV` is the
    /// environment of the run in progress, as ``LuaSandbox/run(_:in:)`` sets it.
    case chunk(CompiledChunk)
    /// A read-only view of a table: writes raise "`name` is read-only", `setmetatable`
    /// refuses it, and tables inside it are read-only too.
    case readOnly(name: String, LuaTable<LuaInput>)
    /// A table the script gets as a copy it may change, whose metatable is locked so that
    /// `setmetatable` refuses it.
    case lockedCopy(LuaTable<LuaInput>)
    /// A value written part by part with a ``LuaValueWriter`` (one value): what a host with
    /// values of its own (JSON) hands over without making a tree of these first.
    case encoded(LuaValueWriter)

    /// A value Lua gave, sent back: the values only Lua holds (a host object, a script's
    /// function, a cycle, a table nested too deep) become `nil`.
    package init(_ output: LuaOutput) {
        switch output {
        case .nil: self = .nil
        case .boolean(let b): self = .boolean(b)
        case .integer(let i): self = .integer(i)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .null: self = .null
        case .table(let t): self = .table(t.map(LuaInput.init))
        case .object, .unsupported, .cycle, .tooDeep: self = .nil
        }
    }
}
