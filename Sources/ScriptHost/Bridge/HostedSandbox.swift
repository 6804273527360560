import LuaSandbox

/// A sandbox of one app with the host's script API installed: the modules of SPEC section 1,
/// and the chunks compiled in it.
///
/// Confined like its sandbox: only the thread running a job touches the host's binding and
/// the chunks.
final class HostedSandbox: SandboxHolding, @unchecked Sendable {
    /// The sandbox, and the request being served: what the modules register through.
    let host: ModuleHost
    /// Compiled chunks by script hash (the last few scripts seen).
    private var chunks: [Int: CompiledChunk] = [:]
    private var chunkOrder: [Int] = []
    /// The `content` class: each request's `request` table and `content` object.
    let contentModule: ContentModule
    /// `hooks`: the hooks registered since the last request are added before each one.
    let hooksModule: HooksModule
    /// `require`: each request's environment, and the folder it looks in first.
    let requireModule: RequireModule
    /// The modules of the script API, installed in this order.
    let modules: [any ScriptModule]

    /// Bytes a new state may hold while the API is installed, before a run arms its limit.
    static let setupMemory = 64 << 20

    init(app: AppRuntime, services: HostServices) throws(SandboxError) {
        let host = ModuleHost(sandbox: try LuaSandbox(memoryLimit: Self.setupMemory), app: app, services: services)
        let downloads = DownloadModule(host: host)
        self.host = host
        contentModule = ContentModule(host: host, downloads: downloads)
        hooksModule = HooksModule(host: host)
        requireModule = RequireModule(host: host)
        modules = [
            contentModule, LogModule(host: host), DataModule(host: host), StoreModule(host: host),
            CategoriesModule(host: host), LocaleModule(host: host), KeysModule(host: host), downloads,
            CryptoModule(host: host), hooksModule, requireModule, HTTPModule(host: host),
        ]
        for module in modules { module.install() }
    }

    /// The sandbox the modules are installed in.
    var sandbox: LuaSandbox { host.sandbox }

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
}
