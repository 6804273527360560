import LuaSandbox

/// `keys.get(name)`: the binary key the host holds under `name` for the request, or nil.
struct KeysModule: ScriptModule {
    unowned let host: ModuleHost

    func install() {
        host.function("get", in: "keys") { binding, call in
            Arguments.text(call, 0, "get").then { name in
                guard let key = binding.run.keys[name] else { return .values([.nil]) }
                return .values([.string(LuaString(bytes: key))])
            }
        }
    }
}
