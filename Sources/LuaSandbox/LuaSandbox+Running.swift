import CLuaSandbox

/// A chunk compiled in one ``LuaSandbox``; usable only there.
package struct CompiledChunk: Sendable, Hashable {
    let ref: Int32
}

/// A global environment made in one ``LuaSandbox``; usable only there.
package struct LuaEnvironment: Sendable, Hashable {
    let ref: Int32
}

/// A value held in one ``LuaSandbox`` for the host; usable only there.
package struct LuaReference: Sendable, Hashable {
    let ref: Int32
}

/// The outcome of compiling.
package enum CompileResult: Sendable {
    /// The chunk compiled.
    case compiled(CompiledChunk)
    /// It did not: a syntax error (`.error("name.lua:3: ...")`) or a limit.
    case failed(RunStatus)
}

extension LuaSandbox {
    /// Compiles Lua source text (never bytecode). Errors read `chunkName:line: message`.
    package func compile(_ source: [UInt8], chunkName: String) -> CompileResult {
        var ref: Int32 = 0
        let status = source.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                pss_compile(context, $0, buffer.count, "=" + chunkName, &ref, errorBuffer)
            }
        }
        let run = runStatus(status)
        if case .completed = run { return .compiled(CompiledChunk(ref: ref)) }
        return .failed(run)
    }

    /// Compiles Lua source text.
    package func compile(_ source: String, chunkName: String) -> CompileResult {
        compile(Array(source.utf8), chunkName: chunkName)
    }

    /// Makes a fresh global environment from the safe library and the registered host
    /// functions; `load` in scripts defaults to it from now on. `nil` when memory ran out.
    package func makeEnvironment() -> LuaEnvironment? {
        var ref: Int32 = 0
        guard pss_env_new(context, &ref) == Int32(PSS_OK.rawValue) else { return nil }
        return LuaEnvironment(ref: ref)
    }

    /// Runs a compiled chunk with `environment` as its globals.
    package func run(_ chunk: CompiledChunk, in environment: LuaEnvironment) -> RunStatus {
        run(chunk, in: environment, typesOf: .none).0
    }

    /// Runs a compiled chunk with `environment` as its globals and, when it returned, tells
    /// the Lua type name of each global in `names` (read raw; `"nil"` when it is not set), in
    /// the same call into the state.
    package func run(_ chunk: CompiledChunk, in environment: LuaEnvironment, typesOf names: GlobalNames) -> (RunStatus, [String]) {
        var types = [Int32](repeating: -1, count: names.count)
        let status = names.joined.withUnsafeBufferPointer { joined in
            types.withUnsafeMutableBufferPointer { out in
                pss_run_chunk(context, chunk.ref, environment.ref, joined.baseAddress, Int32(names.count), out.baseAddress, errorBuffer)
            }
        }
        return (runStatus(status), types.map { LuaType.name(of: $0) ?? "nil" })
    }

    /// Calls the global function `name` of `environment` with held values as arguments;
    /// ``RunStatus/missing`` when it is not a function. Its results are dropped.
    package func call(_ name: String, in environment: LuaEnvironment, arguments: [LuaReference]) -> RunStatus {
        let refs = arguments.map(\.ref)
        return runStatus(
            refs.withUnsafeBufferPointer { buffer in
                pss_call_global(context, environment.ref, name, buffer.baseAddress, Int32(buffer.count), errorBuffer)
            })
    }

    /// Copies a value into the state and holds it for the host. `nil` when memory ran out.
    package func makeValue(_ value: LuaInput) -> LuaReference? {
        makeValue { ValueCodec.write(value, into: &$0) }
    }

    /// Copies the value `write` writes into the state and holds it for the host, as
    /// ``makeValue(_:)`` does with a ``LuaInput``. `nil` when memory ran out, or when `write`
    /// wrote no whole value (the state refuses a malformed one).
    package func makeValue(writing write: (inout LuaValueWriter) -> Void) -> LuaReference? {
        var writer = LuaValueWriter()
        write(&writer)
        var ref: Int32 = 0
        let status = writer.bytes.withUnsafeBufferPointer { pss_value_new(context, $0.baseAddress, $0.count, &ref) }
        return status == Int32(PSS_OK.rawValue) ? LuaReference(ref: ref) : nil
    }

    /// Makes a read-only table named `name` whose fields host function `loader` makes (it
    /// returns ``LuaInput/readOnly(name:_:)``), called only when the script first looks into
    /// the table, and holds it for the host. A script cannot tell it from a table made at once;
    /// one that never looks costs nothing. `nil` when memory ran out.
    package func makeLazyValue(named name: String, loader: HostFunctionID) -> LuaReference? {
        var ref: Int32 = 0
        let status = pss_lazy_view_new(context, name, loader.rawValue, &ref)
        return status == Int32(PSS_OK.rawValue) ? LuaReference(ref: ref) : nil
    }

    /// Copies a held value out of the state (raw access: no script code runs).
    package func read(_ reference: LuaReference) -> Result<LuaOutput, SandboxError> {
        readValue { pss_value_read(context, reference.ref, $0, $1) }
    }

    /// Lets go of a held value, an environment or a chunk.
    package func release(_ reference: LuaReference) { pss_unref(context, reference.ref) }

    /// Lets go of an environment.
    package func release(_ environment: LuaEnvironment) { pss_unref(context, environment.ref) }

    /// Lets go of a compiled chunk.
    package func release(_ chunk: CompiledChunk) { pss_unref(context, chunk.ref) }

    func readValue(
        _ body: (UnsafeMutablePointer<pss_buffer>, UnsafeMutablePointer<pss_buffer>) -> Int32
    ) -> Result<LuaOutput, SandboxError> {
        var out = pss_buffer()
        pss_buffer_init(&out)
        defer { pss_buffer_free(&out) }
        let status = body(&out, errorBuffer)
        guard status == Int32(PSS_OK.rawValue) else {
            if case .error(let message) = runStatus(status) { return .failure(SandboxError(message: message)) }
            return .failure(SandboxError(message: "not enough memory to read the value"))
        }
        do {
            return .success(try ValueCodec.decode(UnsafeRawBufferPointer(start: out.data, count: out.length)))
        } catch {
            return .failure(SandboxError(message: "malformed value"))
        }
    }
}
