import LuaSandbox

/// The globals a script's fresh environment holds, as read from a real one: what
/// `pushscript check` compares a script's global reads against.
public struct SandboxGlobals: Sendable, Hashable {
    /// Every global name of a fresh environment (`string`, `download`, `_G`, …).
    public var names: Set<String>
    /// For each global that is a plain library table with fields (`string`, `json`, …), the
    /// string keys it holds. Tables that are views of something else, and empty ones, are
    /// left out: their fields cannot be listed.
    public var fields: [String: Set<String>]
    /// For each bundled module (`pushscript.providers`), the string keys of the table its
    /// `require` returns.
    public var moduleFields: [String: Set<String>]

    /// Globals from names and fields.
    public init(names: Set<String>, fields: [String: Set<String>] = [:], moduleFields: [String: Set<String>] = [:]) {
        self.names = names
        self.fields = fields
        self.moduleFields = moduleFields
    }

    /// Why the globals could not be read: no Lua state could be made, or the environment
    /// could not be read in time.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        /// One line for a person.
        public let message: String

        /// The message.
        public var description: String { message }
    }
}

extension ScriptHost {
    /// The name of the function the enumeration defines while it runs; left out of the result.
    static let globalsProbe = "__pushscript_globals"

    /// Reads the globals of a fresh environment of a sandbox with the whole script API
    /// installed, as every request's environment is made. Runs on a Lua thread.
    ///
    /// - Throws: ``SandboxGlobals/ReadError`` when no state can be made or the environment
    ///   cannot be read.
    public static func sandboxGlobals() async throws(SandboxGlobals.ReadError) -> SandboxGlobals {
        do throws(SandboxError) {
            return try await sandboxGlobals(executor: SandboxExecutor())
        } catch {
            throw SandboxGlobals.ReadError(message: error.message)
        }
    }

    /// ``sandboxGlobals()`` on the Lua threads of `executor`.
    package static func sandboxGlobals(executor: SandboxExecutor) async throws(SandboxError) -> SandboxGlobals {
        let services = HostServices(configuration: HostConfiguration(offline: true), executor: executor)
        let runtime = AppRuntime(app: "", services: services)
        let hosted = try HostedSandbox(app: runtime, services: services)
        let outcome = await executor.run(hosted.sandbox, deadline: .after(.seconds(10))) { _ in
            Result<LuaOutput, SandboxError> { () throws(SandboxError) in try hosted.readGlobals() }
        }
        guard case .finished(let result) = outcome else {
            throw SandboxError(message: "reading the sandbox's globals took too long")
        }
        let table: LuaOutput
        switch result {
        case .success(let value): table = value
        case .failure(let error): throw error
        }
        var globals = SandboxGlobals(names: [])
        let (environment, modules) = (table.tableValue?.elements.first, table.tableValue?.elements.dropFirst().first)
        for pair in modules?.tableValue?.pairs ?? [] {
            guard let name = pair.key.stringValue, let list = pair.value.tableValue else { continue }
            globals.moduleFields[name] = Set(list.elements.compactMap(\.stringValue))
        }
        for pair in environment?.tableValue?.pairs ?? [] {
            guard let name = pair.key.stringValue else { continue }
            globals.names.insert(name)
            if let list = pair.value.tableValue, !list.elements.isEmpty {
                globals.fields[name] = Set(list.elements.compactMap(\.stringValue))
            }
        }
        return globals
    }
}

extension HostedSandbox {
    /// Lists the globals of a fresh environment: a table of name → the list of a plain
    /// table's string keys, or the value's type name; and of each bundled module, name → the
    /// list of the string keys of the table its chunk returns (run as `require` runs it, in
    /// the fresh environment). On the Lua thread.
    fileprivate func readGlobals() throws(SandboxError) -> LuaOutput {
        let probe = ScriptHost.globalsProbe
        let source = """
            local E, probe = _ENV, "\(probe)"
            \(probe) = function(sink, modules, sources)
              for k, v in next, E do
                if type(k) == "string" and k ~= probe then
                  if type(v) == "table" and v ~= E and getmetatable(v) == nil then
                    local fields = {}
                    for f in next, v do
                      if type(f) == "string" then fields[#fields + 1] = f end
                    end
                    sink[k] = fields
                  else
                    sink[k] = type(v)
                  end
                end
              end
              for name, source in next, sources do
                local chunk = load(source, "=" .. name, "t", E)
                local ok, m = pcall(chunk or error, name)
                if ok and type(m) == "table" then
                  local fields = {}
                  for f in next, m do
                    if type(f) == "string" then fields[#fields + 1] = f end
                  end
                  modules[name] = fields
                end
              end
            end
            """
        guard case .compiled(let chunk) = sandbox.compile(source, chunkName: "globals") else {
            throw SandboxError(message: "the globals probe does not compile")
        }
        defer { sandbox.release(chunk) }
        guard let environment = requireModule.makeRequestEnvironment() else { throw SandboxError(message: "not enough memory for an environment") }
        defer { sandbox.release(environment) }
        guard case .completed = sandbox.run(chunk, in: environment),
              let sink = sandbox.makeValue(.table(LuaTable(pairs: []))),
              let modules = sandbox.makeValue(.table(LuaTable(pairs: []))),
              let names = sandbox.makeValue(.table(LuaTable(fields: BundledModules.names.map { ($0, .string(LuaString(BundledModules.source(of: $0) ?? ""))) })))
        else { throw SandboxError(message: "the globals probe did not run") }
        defer {
            sandbox.release(sink)
            sandbox.release(modules)
            sandbox.release(names)
        }
        let status = sandbox.call(probe, in: environment, arguments: [sink, modules, names])
        guard case .completed = status else { throw SandboxError(message: "the globals probe failed: \(status)") }
        return .table(LuaTable(array: [try sandbox.read(sink).get(), try sandbox.read(modules).get()]))
    }
}
