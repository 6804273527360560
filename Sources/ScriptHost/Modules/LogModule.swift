import LuaSandbox

/// `log.debug/info/warn/error(format, ...)` with `string.format` rules, and `print`, which is
/// `log.info` of its arguments joined by tabs.
extension HostedSandbox {
    func installLog() {
        for level in LogEntry.Level.allCases {
            function(level.rawValue, in: "log", arguments: .formatted) { binding, call in
                binding.run.log(level, call[0].stringValue ?? String(describing: call[0]))
                return .none
            }
        }
        function("print", in: nil, arguments: .printed) { binding, call in
            binding.run.log(.info, call[0].stringValue ?? String(describing: call[0]))
            return .none
        }
    }
}
