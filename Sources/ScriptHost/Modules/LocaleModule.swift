import LuaSandbox
import NotificationModel

/// `locale.best(available [, preferred])` and `keys.get(name)`.
extension HostedSandbox {
    func installLocale() {
        function("best", in: "locale") { binding, call in
            guard let available = Self.strings(call[0]) else {
                return .error("bad argument #1 to 'best' (list of strings expected, got \(Arguments.describe(call[0])))")
            }
            var preferred = binding.run.locales
            if !call[1].isNil {
                guard let list = Self.strings(call[1]) else {
                    return .error("bad argument #2 to 'best' (list of strings expected, got \(Arguments.describe(call[1])))")
                }
                preferred = list
            }
            return .values([LocaleMatcher.best(available: available, preferred: preferred).map(LuaInput.text) ?? .nil])
        }
    }

    func installKeys() {
        function("get", in: "keys") { binding, call in
            Arguments.text(call, 0, "get").then { name in
                guard let key = binding.run.keys[name] else { return .values([.nil]) }
                return .values([.string(LuaString(bytes: key))])
            }
        }
    }

    /// A Lua list of strings as Swift strings.
    static func strings(_ value: LuaOutput) -> [String]? {
        guard case .table(let t) = value, t.isArray || t.count == 0 else { return nil }
        var out: [String] = []
        for element in t.elements {
            guard let s = element.stringValue else { return nil }
            out.append(s)
        }
        return out
    }
}
