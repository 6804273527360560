import LuaSandbox

/// The one way a script's or a module's source reaches Lua's compiler, shared by the request
/// path (``HostedSandbox``), the script directory's reload check and `pushscript check`: the
/// size limit first, then the compiler. What each says about a failure is its own.
package enum ScriptCompiler {
    /// Why a source was not compiled.
    package enum Failure: Error, Sendable, Equatable {
        /// It is larger than ``Script/maximumSize``: its size in bytes.
        case tooLarge(bytes: Int)
        /// The compiler refused it or a limit stopped it.
        case refused(RunStatus)
    }

    /// The message for a source of `bytes` bytes over the limit, e.g. `news.lua is 2000000
    /// bytes; a script may have at most 1048576 (1 MiB)`; `what` is `script` or `module`.
    package static func tooLargeMessage(_ subject: String, bytes: Int, what: String = "script") -> String {
        "\(subject) is \(bytes) bytes; a \(what) may have at most \(Script.maximumSize) (1 MiB)"
    }

    /// Compiles `source` in `sandbox` under the limits armed now and keeps the chunk.
    package static func compile(_ source: [UInt8], chunkName: String, in sandbox: LuaSandbox) -> Result<CompiledChunk, Failure> {
        guard source.count <= Script.maximumSize else { return .failure(.tooLarge(bytes: source.count)) }
        switch sandbox.compile(source, chunkName: chunkName) {
        case .compiled(let chunk): return .success(chunk)
        case .failed(let status): return .failure(.refused(status))
        }
    }

    /// Whether `source` compiles, under `memoryLimit` bytes and `cpuTime` of CPU (the compile
    /// check's own bound: a table the compiler grows whose keys could not be moved within it
    /// is refused at once, as in a request); the chunk is let go at once. On a Lua thread.
    package static func check(_ source: [UInt8], chunkName: String, in sandbox: LuaSandbox, memoryLimit: Int, cpuTime: Duration) -> Failure? {
        sandbox.arm(RunLimits(cpuTime: cpuTime, memoryBytes: memoryLimit, deadline: nil))
        defer { sandbox.disarm() }
        switch compile(source, chunkName: chunkName, in: sandbox) {
        case .success(let chunk):
            sandbox.release(chunk)
            sandbox.collectGarbage()
            return nil
        case .failure(let failure):
            return failure
        }
    }
}
