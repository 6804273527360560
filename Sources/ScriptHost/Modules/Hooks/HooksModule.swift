import LuaSandbox

/// `hooks.NAME(...)`: functions the embedding app registers with
/// ``ScriptHost/register(hook:_:)``.
///
/// `hooks` is a plain table in each request's environment, with one host function per hook
/// name. Hooks may be registered after a sandbox was made: before each request's environment
/// is made, the names registered since are added (``installNewHooks()``), so a new hook is
/// reachable from the next request on, with no `__index` metatable involved. Each function
/// looks its hook up by name when called, so registering a name again takes effect at once.
final class HooksModule: ScriptModule {
    private unowned let host: ModuleHost
    /// The host's services, read by every request without retaining them (they outlive the
    /// sandbox, whose module host holds them).
    private let services: Unmanaged<HostServices>
    /// The hook names added to `hooks` so far (see ``installNewHooks()``).
    private var hookNames: Set<String> = []

    init(host: ModuleHost) {
        self.host = host
        services = .passUnretained(host.services)
    }

    func install() {
        host.sandbox.register(value: .table(LuaTable(pairs: [])), as: "hooks")
        installNewHooks()
    }

    /// Adds `hooks.NAME` for each hook registered since this sandbox last looked. Hooks are
    /// never removed, so a count that did not change means no new name. On the Lua thread.
    func installNewHooks() {
        // (the count is read without the lock: most requests find no new hook)
        let count = services._withUnsafeGuaranteedRef { $0.hookCount.load(ordering: .acquiring) }
        guard count != hookNames.count else { return }
        let known = hookNames
        let added: [String] = host.services.hooks.withLock { hooks in
            hooks.count == known.count ? [] : hooks.keys.filter { !known.contains($0) }.sorted()
        }
        for name in added {
            hookNames.insert(name)
            host.function(name, in: "hooks") { [unowned self] binding, call in callHook(name, binding: binding, call: call) }
        }
    }

    private func callHook(_ name: String, binding: Binding, call: HostCall) -> HostReturn {
        guard let hook = host.services.hooks.withLock({ $0[name] }) else {
            return .values([.nil, .text("no hook named '\(name)'")])
        }
        var arguments: [HookValue] = []
        for (index, argument) in call.arguments.enumerated() {
            do {
                arguments.append(try HookValues.hookValue(argument))
            } catch {
                return .error("bad argument #\(index + 1) to '\(name)' (hooks take strings, numbers, booleans, nil and tables of them, got \(error.message))")
            }
        }
        // `bestAttempt` runs under a deadline of its own, at most its time from now.
        let deadline = binding.phase == .bestAttempt ? Deadline.after(binding.run.limits.bestAttemptTime) : binding.run.deadline
        // The request's deadline or an expiry cuts the wait short.
        let wait = HostWait()
        guard let waitID = binding.run.beginWait(cancel: { wait.cancel() }) else { return .kill(.time) }
        let outcome = HookValues.call(hook, with: arguments, on: host.services.executor.pool, until: deadline, wait: wait)
        binding.run.endWait(waitID)
        // The host may have given up on this phase while the hook ran.
        guard host.active != nil else { return .kill(.time) }
        switch outcome {
        case .timedOut:
            return .kill(.time)
        case .threw(let message):
            return .values([.nil, .text(message)])
        case .returned(let values):
            do {
                return .values(try values.map { value throws(HookValues.Problem) in try HookValues.luaValue(value) })
            } catch {
                return .values([.nil, .text("hook '\(name)' returned \(error.message), which scripts cannot take")])
            }
        }
    }
}
