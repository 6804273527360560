import CLuaSandbox
import CLuaSandboxTesting
import Foundation

/// Runs `body` on a new thread with an 8 MB stack, as the host runs Lua, and returns its
/// result. The CPU budget of a sandbox run is measured on the thread that runs it, so a whole
/// run (arm, compile, run) happens inside one `body`.
func onLuaThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.stackSize = 8 << 20
        thread.start()
    }
}

/// What one sandboxed run of a chunk did.
struct SandboxRun: Sendable {
    var status: Int32
    var trip: pss_trip.RawValue
    var message: String
    /// CPU time of the running thread from arming the limits to the end of the run.
    var cpuMilliseconds: Double
    var wallMilliseconds: Double
    /// The type of the chunk's global `reached` after the run (Lua type number; 0 is nil).
    var reachedType: Int32

    var killedByCPU: Bool {
        status == Int32(PSS_KILLED.rawValue) && trip == pss_trip.PSS_TRIP_CPU.rawValue
    }
}

/// Lua type number of booleans (LUA_TBOOLEAN).
let luaTypeBoolean: Int32 = 1

private func text(of buffer: pss_buffer) -> String {
    guard let data = buffer.data, buffer.length > 0 else { return "" }
    return String(decoding: UnsafeBufferPointer(start: data, count: buffer.length), as: UTF8.self)
}

/// Compiles and runs `source` in a fresh sandboxed state with the given limits, through the
/// non-raising entry points of pss.h. Call it on a thread from `onLuaThread`.
func runSandboxed(_ source: String, cpuMilliseconds: Int64 = 100, memoryMB: Int = 16,
                  timeMilliseconds: Int64 = 2000) -> SandboxRun {
    let memory = memoryMB << 20
    var run = SandboxRun(status: -1, trip: 0, message: "", cpuMilliseconds: 0,
                         wallMilliseconds: 0, reachedType: -1)
    guard let ctx = pss_state_new(memory, nil) else {
        run.message = "no state"
        return run
    }
    defer { pss_state_close(ctx) }
    var err = pss_buffer()
    pss_buffer_init(&err)
    defer { pss_buffer_free(&err) }

    let wallStart = pss_monotonic_now_ns()
    pss_limits_arm(ctx, cpuMilliseconds * 1_000_000, wallStart + timeMilliseconds * 1_000_000,
                   memory)
    let cpuStart = pss_thread_cpu_now_ns()
    var function: Int32 = 0
    let bytes = Array(source.utf8)
    var status = bytes.withUnsafeBufferPointer { chunk in
        chunk.withMemoryRebound(to: CChar.self) {
            pss_compile(ctx, $0.baseAddress, $0.count, "=hostile", &function, &err)
        }
    }
    var env: Int32 = 0
    if status == Int32(PSS_OK.rawValue) { status = pss_env_new(ctx, &env) }
    if status == Int32(PSS_OK.rawValue) { status = pss_run_chunk(ctx, function, env, nil, 0, nil, &err) }
    run.cpuMilliseconds = Double(pss_thread_cpu_now_ns() - cpuStart) / 1e6
    run.wallMilliseconds = Double(pss_monotonic_now_ns() - wallStart) / 1e6
    run.status = status
    run.trip = pss_trip_of(ctx).rawValue
    run.message = text(of: err)
    run.reachedType = env != 0 ? pss_testing_global_type(ctx, env, "reached") : -1
    return run
}

/// Runs a Lua chunk in a plain state next to the project's pattern functions
/// (`pss_testing_pattern_compare`): the chunk's count, and its report or error.
func comparePatterns(source: [UInt8]) -> (count: Int, report: String) {
    var report = pss_buffer()
    pss_buffer_init(&report)
    defer { pss_buffer_free(&report) }
    let count = source.withUnsafeBufferPointer { chunk in
        chunk.withMemoryRebound(to: CChar.self) {
            pss_testing_pattern_compare($0.baseAddress, $0.count, &report)
        }
    }
    return (count, text(of: report))
}
