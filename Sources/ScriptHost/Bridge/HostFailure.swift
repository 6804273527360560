import LuaSandbox

/// A message for a failed host call.
struct HostFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension Result where Failure == HostFailure {
    /// Runs `body` with the value, or turns the failure into a raised error.
    func then(_ body: (Success) -> HostReturn) -> HostReturn {
        switch self {
        case .success(let value): return body(value)
        case .failure(let failure): return .error(failure.message)
        }
    }
}
