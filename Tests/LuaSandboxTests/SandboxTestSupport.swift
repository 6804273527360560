import LuaSandbox

/// Compiles and runs `source` in a fresh environment of `sandbox` on the calling thread,
/// under `limits`; returns the status.
func runScript(
    _ source: String, in sandbox: LuaSandbox, limits: RunLimits? = nil, name: String = "test.lua"
) -> RunStatus {
    sandbox.arm(limits ?? RunLimits(cpuTime: .milliseconds(500), memoryBytes: 8 << 20, deadline: .after(.seconds(5))))
    defer { sandbox.disarm() }
    guard case .compiled(let chunk) = sandbox.compile(source, chunkName: name) else {
        if case .failed(let status) = sandbox.compile(source, chunkName: name) { return status }
        return .error("compile")
    }
    guard let env = sandbox.makeEnvironment() else { return .limit(.memory) }
    defer {
        sandbox.release(env)
        sandbox.release(chunk)
    }
    return sandbox.run(chunk, in: env)
}

/// A sandbox with `result(...)` that records what scripts report, and `fail(msg)`.
final class Recorder: @unchecked Sendable {
    var results: [[LuaOutput]] = []
    let sandbox: LuaSandbox

    init(memoryLimit: Int = 8 << 20) throws {
        sandbox = try LuaSandbox(memoryLimit: memoryLimit)
        sandbox.register("result") { [unowned self] call in
            results.append(call.arguments)
            return .none
        }
        sandbox.register("fail") { call in .error(call[0].stringValue ?? "failed") }
        sandbox.register("echo") { call in .values(call.arguments.map(LuaInput.init)) }
    }

    /// Runs the script and returns the first argument of each `result(...)` call.
    func run(_ source: String, limits: RunLimits? = nil) -> (RunStatus, [LuaOutput]) {
        results = []
        let status = runScript(source, in: sandbox, limits: limits)
        return (status, results.map { $0.first ?? .nil })
    }
}
