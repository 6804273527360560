import LuaSandbox

/// `log.debug/info/warn/error(format, ...)` with `string.format` rules, and `print`, which is
/// `log.info` of its arguments joined by tabs. Bytes that are not UTF-8 are logged as U+FFFD.
struct LogModule: ScriptModule {
    unowned let host: ModuleHost

    func install() {
        for level in LogEntry.Level.allCases {
            host.function(level.rawValue, in: "log", arguments: .formatted) { binding, call in
                binding.run.log(level, Self.logText(call[0]))
                return .none
            }
        }
        host.function("print", in: nil, arguments: .printed) { binding, call in
            binding.run.log(.info, Self.logText(call[0]))
            return .none
        }
    }

    /// The text of a formatted message, its invalid UTF-8 repaired.
    private static func logText(_ value: LuaOutput) -> String {
        if case .string(let bytes) = value { return bytes.description }
        return value.typeName
    }
}
