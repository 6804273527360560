import Foundation
import LuaSandbox
import NotificationModel

/// A sandbox of one app with the host's script API installed: the modules of SPEC section 1,
/// the `content` class, and the chunks compiled in it.
///
/// Confined like its sandbox: only the thread running a job touches ``binding`` and
/// ``chunks``.
final class HostedSandbox: SandboxHolding, @unchecked Sendable {
    let sandbox: LuaSandbox
    let app: AppRuntime
    let services: HostServices
    /// The request being served; set by each job before it runs script code.
    var binding: Binding?
    /// Compiled chunks by script hash (the last few scripts seen).
    var chunks: [Int: CompiledChunk] = [:]
    private var chunkOrder: [Int] = []
    var contentClass: HostClass!
    var methodIDs: [String: HostFunctionID] = [:]
    /// Makes the fields of a request's `request` table when its script first looks into it.
    var requestLoader = HostFunctionID(rawValue: -1)
    /// The hook names added to `hooks` so far (see ``installNewHooks()``).
    var hookNames: Set<String> = []
    /// Modules compiled in this sandbox, by file path (or `bundled:NAME`).
    var modules: [String: CompiledModule] = [:]
    /// The folder of the script being run: `require` looks there first.
    var moduleBase: URL?
    /// The chunk that defines `require` in each request's environment.
    var preludeChunk: CompiledChunk?

    /// Bytes a new state may hold while the API is installed, before a run arms its limit.
    static let setupMemory = 64 << 20

    init(app: AppRuntime, services: HostServices) throws(SandboxError) {
        sandbox = try LuaSandbox(memoryLimit: Self.setupMemory)
        self.app = app
        self.services = services
        installContent()
        installLog()
        installData()
        installStore()
        installCategories()
        installLocale()
        installKeys()
        installDownloads()
        installCrypto()
        installHooks()
        installRequire()
        installHTTP()
    }

    /// The request being served, if its phase may still write.
    var active: Binding? {
        guard let binding, binding.run.isActive(binding.phase) else { return nil }
        return binding
    }

    /// The chunk for `script`, compiled once per sandbox.
    func chunk(for script: Script) -> Result<CompiledChunk, ScriptCompiler.Failure> {
        if let chunk = chunks[script.hash] { return .success(chunk) }
        let result = ScriptCompiler.compile(script.source, chunkName: script.name, in: sandbox)
        if case .success(let chunk) = result {
            chunks[script.hash] = chunk
            chunkOrder.append(script.hash)
            if chunkOrder.count > 4 {
                let old = chunkOrder.removeFirst()
                if let stale = chunks.removeValue(forKey: old) { sandbox.release(stale) }
            }
        }
        return result
    }

    /// Registers a function of a module whose calls need the current request. When the request
    /// is over for this phase (the host gave up on it), the call stops the script.
    func function(
        _ name: String, in module: String?, arguments: HostArguments = .raw,
        _ body: @escaping (Binding, HostCall) -> HostReturn
    ) {
        sandbox.register(name, in: module, arguments: arguments) { [unowned self] call in
            guard let binding = active else { return .kill(.time) }
            return body(binding, call)
        }
    }
}
