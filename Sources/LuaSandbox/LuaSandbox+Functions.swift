import CLuaSandbox

extension LuaSandbox {
    private static let dispatchInstalled: Void = {
        pss_set_dispatch(sandboxDispatch)
        pss_set_field_dispatch(sandboxFieldDispatch)
    }()

    static func installDispatch() { _ = dispatchInstalled }

    /// Adds a host function that scripts can reach only as a value the host returns (a method,
    /// say); see ``register(_:in:arguments:_:)`` for one in every environment.
    @discardableResult
    package func addFunction(_ function: @escaping HostFunction) -> HostFunctionID {
        functions.append(function)
        return HostFunctionID(rawValue: Int32(functions.count - 1))
    }

    /// Adds a host function to every environment made from now on, as `module.name`, or as
    /// the global `name` when `module` is nil (the module table is made when missing). An
    /// environment made before whose script has not yet read that global (or used `module`)
    /// sees it too: an environment takes each global when its script first reads it, and its
    /// copy of a module table is made when the script first uses it.
    @discardableResult
    package func register(
        _ name: String, in module: String? = nil, arguments: HostArguments = .raw,
        _ function: @escaping HostFunction
    ) -> HostFunctionID {
        let id = addFunction(function)
        let kind: Int32
        switch arguments {
        case .raw: kind = Int32(PSS_KIND_RAW)
        case .formatted: kind = Int32(PSS_KIND_FORMAT)
        case .printed: kind = Int32(PSS_KIND_TOSTRING)
        }
        _ = withOptionalCString(module) { pss_register(context, $0, name, id.rawValue, kind) }
        return id
    }

    /// Lets go of the host functions registered and of what they hold, for a sandbox that is
    /// never run again: a function that refers back to what owns the sandbox would otherwise
    /// keep both alive, and the Lua state with them.
    package func retire() {
        functions.removeAll()
        textFieldFunctions.removeAll()
    }

    /// Adds a value to every environment made from now on, as `module.name` or `name`.
    package func register(value: LuaInput, as name: String, in module: String? = nil) {
        let bytes = ValueCodec.encode(value)
        _ = withOptionalCString(module) { m in
            bytes.withUnsafeBufferPointer { pss_register_value(context, m, name, $0.baseAddress, $0.count) }
        }
    }

    /// Adds the state's JSON null (``LuaInput/null``) as `module.name`.
    package func registerNull(as name: String, in module: String) {
        _ = pss_register_null(context, module, name)
    }

    /// Adds to every later environment the global `name`: the value `chunk` returns, run once
    /// now in an environment of its own with two arguments: host function `function`, and
    /// `given`, which returns the running environment's own library table of a name (`string`,
    /// even after the script assigned to `string`) or, called with no name, a table of the
    /// running environment's own that no script reaches and that goes with it. False when the
    /// chunk failed.
    package func register(madeBy chunk: CompiledChunk, as name: String, passing function: HostFunctionID) -> Bool {
        pss_register_made(context, name, chunk.ref, function.rawValue) == Int32(PSS_OK.rawValue)
    }
}

func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let string else { return body(nil) }
    return string.withCString { body($0) }
}

/// The one dispatch function the shims call for every host function of every state.
private func sandboxDispatch(
    host: UnsafeMutableRawPointer?, functionID: Int32, objectID: Int32,
    arguments: UnsafePointer<UInt8>?, length: Int, out: UnsafeMutablePointer<pss_buffer>?
) -> Int32 {
    guard let host, let out else { return Int32(PSS_HOST_ERROR) }
    let sandbox = Unmanaged<LuaSandbox>.fromOpaque(host).takeUnretainedValue()
    func fail(_ message: String) -> Int32 {
        var message = message
        message.withUTF8 { _ = pss_buffer_append(out, $0.baseAddress, $0.count) }
        return Int32(PSS_HOST_ERROR)
    }
    guard functionID >= 0, Int(functionID) < sandbox.functions.count else {
        return fail("unknown host function")
    }
    let values: [LuaOutput]
    do {
        values = try ValueCodec.decodeSequence(UnsafeRawBufferPointer(start: arguments, count: length))
    } catch {
        return fail("malformed arguments")
    }
    let call = HostCall(arguments: values, objectID: objectID >= 0 ? objectID : nil)
    return answer(sandbox.functions[Int(functionID)](call), of: sandbox, into: out)
}

/// The field dispatch (pss_field_fn): a read (`text` nil) or a write of a string to a text
/// field of a host object, given to the class's ``TextFieldFunction`` without decoding.
private func sandboxFieldDispatch(
    host: UnsafeMutableRawPointer?, functionID: Int32, objectID: Int32, field: Int32,
    text: UnsafePointer<UInt8>?, length: Int, out: UnsafeMutablePointer<pss_buffer>?
) -> Int32 {
    guard let host, let out else { return Int32(PSS_HOST_ERROR) }
    let sandbox = Unmanaged<LuaSandbox>.fromOpaque(host).takeUnretainedValue()
    guard functionID >= 0, Int(functionID) < sandbox.textFieldFunctions.count else {
        return answer(.error("unknown host function"), of: sandbox, into: out)
    }
    let written = text.map { UnsafeBufferPointer(start: $0, count: length) }
    let access: TextFieldAccess = written.map { .write($0) } ?? .read
    return answer(sandbox.textFieldFunctions[Int(functionID)](objectID, Int(field), access), of: sandbox, into: out)
}

/// Writes what a host function returned into `out` for the engine, and how it went.
private func answer(_ result: HostReturn, of sandbox: LuaSandbox, into out: UnsafeMutablePointer<pss_buffer>) -> Int32 {
    func fail(_ message: String) -> Int32 {
        var message = message
        message.withUTF8 { _ = pss_buffer_append(out, $0.baseAddress, $0.count) }
        return Int32(PSS_HOST_ERROR)
    }
    switch result {
    case .values(let results):
        if results.isEmpty { return Int32(PSS_HOST_RETURN) }
        let bytes = ValueCodec.encodeSequence(results)
        let ok = bytes.withUnsafeBufferPointer { pss_buffer_append(out, $0.baseAddress, $0.count) }
        return ok != 0 ? Int32(PSS_HOST_RETURN) : fail("not enough memory")
    case .error(let message):
        return fail(message)
    case .kill(let kind):
        sandbox.recordTrip(kind)
        return Int32(PSS_HOST_KILL)
    }
}
