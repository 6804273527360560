import LuaSandbox

/// Argument checks for module functions, with Lua's wording.
enum Arguments {
    /// The string at `index`, or an error message.
    static func string(_ call: HostCall, _ index: Int, _ function: String) -> Result<LuaString, HostFailure> {
        if case .string(let s) = call[index] { return .success(s) }
        return .failure(HostFailure("bad argument #\(index + 1) to '\(function)' (string expected, got \(describe(call[index])))"))
    }

    /// The UTF-8 text at `index`, or an error message.
    static func text(_ call: HostCall, _ index: Int, _ function: String) -> Result<String, HostFailure> {
        string(call, index, function).flatMap { s in
            s.utf8String.map { .success($0) } ?? .failure(HostFailure("bad argument #\(index + 1) to '\(function)' (string is not valid UTF-8)"))
        }
    }

    /// A Lua list of strings as Swift strings; nil for anything else.
    static func strings(_ value: LuaOutput) -> [String]? {
        guard case .table(let t) = value, t.isArray || t.count == 0 else { return nil }
        var out: [String] = []
        for element in t.elements {
            guard let s = element.stringValue else { return nil }
            out.append(s)
        }
        return out
    }

    /// What a value is, as Lua's argument errors say it.
    static func describe(_ value: LuaOutput) -> String {
        if case .nil = value { return "no value" }
        return value.typeName
    }
}
