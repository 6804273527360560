import LuaSandbox
import NotificationModel

/// `locale.best(available [, preferred])`: the best of `available` for the preferred
/// languages, by default the request's.
struct LocaleModule: ScriptModule {
    unowned let host: ModuleHost

    func install() {
        host.function("best", in: "locale") { binding, call in
            guard let available = Arguments.strings(call[0]) else {
                return .error("bad argument #1 to 'best' (list of strings expected, got \(Arguments.describe(call[0])))")
            }
            var preferred = binding.run.locales
            if !call[1].isNil {
                guard let list = Arguments.strings(call[1]) else {
                    return .error("bad argument #2 to 'best' (list of strings expected, got \(Arguments.describe(call[1])))")
                }
                preferred = list
            }
            return .values([LocaleMatcher.best(available: available, preferred: preferred).map(LuaInput.text) ?? .nil])
        }
    }
}
