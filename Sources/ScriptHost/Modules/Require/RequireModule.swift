import Foundation
import LuaSandbox

/// `require "name"`: loads `name.lua` from the script's folder or the host's library folders,
/// or a module shipped with PushScript (`require "pushscript.NAME"`); `string`, `table`,
/// `math`, `coroutine` and `utf8` give that library of the request's environment, as stock
/// Lua's `package.loaded` does (`os`, which the sandbox cuts down, and `io`, `debug`,
/// `package`, which it leaves out, are errors that say what to use instead).
///
/// A module is compiled once per sandbox (cached by its source, like scripts) under the limits
/// of the request that first needs it, and its chunk runs again in every request that requires
/// it: each request gets a fresh module table, and what a module sets — in its table or as a
/// global — lives in that request's environment only. Within a request, `require` caches as
/// Lua's `package.loaded` does: the second `require` of a name returns the first one's value.
///
/// `require` itself is a small Lua function made once per sandbox (``requireMaker``) and held
/// by every request's environment; it asks the host for the module's compiled chunk through a
/// host function that only it holds, so scripts never see it, and keeps what a request loaded
/// in a table of that request's environment that no script reaches. A file module is looked at
/// (one `stat`) on the first `require` of each request, and read and compiled again when it
/// changed: a module edited under `serve` or `watch` is in use from the next request.
///
/// Each request's environment is made here (``makeRequestEnvironment()``).
final class RequireModule: ScriptModule {
    private unowned let host: ModuleHost
    /// Modules compiled in this sandbox, by file path (or `bundled:NAME`).
    private var modules: [String: CompiledModule] = [:]
    /// The folder of the script being run: `require` looks there first.
    var moduleBase: URL?
    /// Whether `require` was made in this sandbox (see ``install()``).
    private var installed = false

    init(host: ModuleHost) {
        self.host = host
    }

    /// Makes `require`, once per sandbox: called with the module fetcher (a host function
    /// scripts never see) and the environment's giver (see
    /// ``LuaSandbox/register(madeBy:as:passing:)``), it returns the function every request's
    /// environment holds. What a request loads is kept in the giver's table of that request's
    /// environment, so no request sees another's modules.
    static let requireMaker = """
        local fetch, given = ...
        local pcall, error, type = pcall, error, type
        return function(name)
          if type(name) ~= "string" then
            error("bad argument #1 to 'require' (string expected, got " .. (name == nil and "no value" or type(name)) .. ")", 2)
          end
          -- the standard libraries, as stock Lua's package.loaded holds them from the start
          if name == "string" or name == "table" or name == "math" or name == "coroutine" or name == "utf8" then
            return given(name)
          end
          local run = given()
          local loaded, loading = run.loaded, run.loading
          if loaded == nil then  -- made for the requests that require
            loaded, loading = {}, {}
            run.loaded, run.loading = loaded, loading
          end
          local value = loaded[name]
          if value ~= nil then return value end
          if loading[name] then error("module '" .. name .. "' requires itself while it loads", 2) end
          local chunk, file = fetch(name)
          if not chunk then error(file, 2) end
          loading[name] = true
          local ok, result = pcall(chunk, name, file)
          loading[name] = nil
          if not ok then error(result, 0) end
          if result == nil then result = true end
          loaded[name] = result
          return result, file
        end
        """

    /// A module compiled in this sandbox.
    struct CompiledModule {
        let chunk: CompiledChunk
        let source: [UInt8]
        var stamp: FileStamp?
        var settled: Bool
    }

    func install() {
        let sandbox = host.sandbox
        let fetcher = sandbox.addFunction { [unowned self, unowned host] call in
            guard let binding = host.active else { return .kill(.time) }
            guard case .string(let raw) = call[0], let text = raw.utf8String else {
                return .values([.nil, .text("bad argument #1 to 'require' (string expected, got \(Arguments.describe(call[0])))")])
            }
            switch fetchModule(text, run: binding.run) {
            case .success(let chunk): return .values([.chunk(chunk.0), .text(chunk.1)])
            case .failure(.message(let message)): return .values([.nil, .text(message)])
            case .failure(.limit(let kind)): return .kill(kind)
            }
        }
        guard case .compiled(let maker) = sandbox.compile(Self.requireMaker, chunkName: "require") else { return }
        installed = sandbox.register(madeBy: maker, as: "require", passing: fetcher)
        sandbox.release(maker)
    }

    /// Why a module could not be given.
    enum FetchFailure: Error {
        case message(String)
        case limit(LimitKind)
    }

    /// The compiled chunk of module `text` and its chunk name. On the Lua thread, in a run.
    private func fetchModule(_ text: String, run: RequestRun) -> Result<(CompiledChunk, String), FetchFailure> {
        let location: ModuleLocation
        do {
            let name = try ModuleName(text)
            location = try ModuleResolver(scriptDirectory: moduleBase, libraryDirectories: host.services.configuration.libraryDirectories).locate(name)
        } catch {
            return .failure(.message(error.message))
        }
        let key: String
        let observed: FileStamp?
        switch location {
        case .bundled(let name, _):
            key = "bundled:" + name
            observed = nil
        case .file(let url, _):
            key = url.standardizedFileURL.path
            switch ScriptFileSystem.observe(key) {
            case .file(let stamp): observed = stamp
            case .absent: return .failure(.message("module '\(text)' not found: \(key) is gone"))
            case .unreadable(let why): return .failure(.message("cannot read module '\(text)' (\(key)): \(why)"))
            }
        }
        if let cached = modules[key], cached.settled, observed == nil || cached.stamp == observed {
            return .success((cached.chunk, location.chunkName))
        }
        let source: [UInt8]
        var stamp: FileStamp?
        var settled = true
        switch location {
        case .bundled(_, let text):
            source = Array(text.utf8)
        case .file(let url, _):
            let now = ScriptFileSystem.now()
            switch ScriptFileSystem.contents(of: url.path, limit: Script.maximumSize) {
            case .bytes(let bytes, let read):
                source = bytes
                stamp = read
                settled = read.isSettled(at: now)
            case .tooLarge(let read):
                return .failure(.message(ScriptCompiler.tooLargeMessage("module '\(text)' (\(location.chunkName))", bytes: Int(read.size), what: "module")))
            case .absent:
                return .failure(.message("module '\(text)' not found: \(url.path) is gone"))
            case .unreadable(let why):
                return .failure(.message("cannot read module '\(text)' (\(url.path)): \(why)"))
            }
        }
        if var cached = modules[key], cached.source == source {
            cached.stamp = stamp
            cached.settled = settled
            modules[key] = cached
            return .success((cached.chunk, location.chunkName))
        }
        switch host.sandbox.compile(source, chunkName: location.chunkName) {
        case .compiled(let chunk):
            if let stale = modules[key] { host.sandbox.release(stale.chunk) }
            modules[key] = CompiledModule(chunk: chunk, source: source, stamp: stamp, settled: settled)
            return .success((chunk, location.chunkName))
        case .failed(.error(let message)):
            return .failure(.message("module '\(text)' does not compile: \(message)"))
        case .failed(.limit(let kind)):
            return .failure(.limit(kind))
        case .failed:
            return .failure(.message("module '\(text)' does not compile"))
        }
    }

    /// A fresh environment for a request, `require` in it; nil when memory ran out, or when
    /// `require` could not be made in this sandbox.
    func makeRequestEnvironment() -> LuaEnvironment? {
        guard installed else { return nil }
        return host.sandbox.makeEnvironment()
    }
}
