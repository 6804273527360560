import Dispatch
import Foundation
import LuaSandbox
import Synchronization

/// `hooks.NAME(...)`: functions the embedding app registers with
/// ``ScriptHost/register(hook:_:)``.
///
/// `hooks` is a plain table in each request's environment, with one host function per hook
/// name. Hooks may be registered after a sandbox was made: before each request's environment
/// is made, the names registered since are added (``installNewHooks()``), so a new hook is
/// reachable from the next request on, with no `__index` metatable involved. Each function
/// looks its hook up by name when called, so registering a name again takes effect at once.
extension HostedSandbox {
    func installHooks() {
        sandbox.register(value: .table(LuaTable(pairs: [])), as: "hooks")
        installNewHooks()
    }

    /// Adds `hooks.NAME` for each hook registered since this sandbox last looked. Hooks are
    /// never removed, so a count that did not change means no new name. On the Lua thread.
    func installNewHooks() {
        let known = hookNames
        let added: [String] = services.hooks.withLock { hooks in
            hooks.count == known.count ? [] : hooks.keys.filter { !known.contains($0) }.sorted()
        }
        for name in added {
            hookNames.insert(name)
            function(name, in: "hooks") { [unowned self] binding, call in callHook(name, binding: binding, call: call) }
        }
    }

    private func callHook(_ name: String, binding: Binding, call: HostCall) -> HostReturn {
        guard let hook = services.hooks.withLock({ $0[name] }) else {
            return .values([.nil, .text("no hook named '\(name)'")])
        }
        for (index, argument) in call.arguments.enumerated() {
            if let problem = HookValues.problem(argument) {
                return .error("bad argument #\(index + 1) to '\(name)' (hooks take strings, numbers, booleans, nil and tables of them, got \(problem))")
            }
        }
        // `bestAttempt` runs under a deadline of its own, at most its time from now.
        let deadline = binding.phase == .didReceive ? binding.run.deadline : Deadline.after(binding.run.limits.bestAttemptTime)
        let outcome = HookValues.call(hook, with: call.arguments, on: services.executor.pool, until: deadline)
        // The host may have given up on this phase while the hook ran.
        guard active != nil else { return .kill(.time) }
        switch outcome {
        case .timedOut:
            return .kill(.time)
        case .threw(let message):
            return .values([.nil, .text(message)])
        case .returned(let values):
            for value in values {
                if let problem = HookValues.problem(value) {
                    return .values([.nil, .text("hook '\(name)' returned \(problem), which scripts cannot take")])
                }
            }
            return .values(values)
        }
    }
}

/// Running hooks and checking what crosses to and from them.
enum HookValues {
    /// How a hook call ended for the script.
    enum Outcome: Sendable {
        case returned([HookValue])
        case threw(String)
        case timedOut
    }

    /// The deepest nesting of tables a hook takes or returns, as for `userInfo`.
    static let maximumDepth = 32

    /// Runs `hook` on a thread of `pool` and waits for it until `deadline`. A hook that is not
    /// back by then keeps its thread until it returns; its results are dropped.
    static func call(_ hook: @escaping Hook, with arguments: [HookValue], on pool: LuaThreadPool, until deadline: Deadline) -> Outcome {
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<Outcome?>(nil)
        pool.submit {
            let outcome: Outcome
            do {
                outcome = .returned(try hook(arguments))
            } catch {
                outcome = .threw(message(of: error))
            }
            box.withLock { $0 = outcome }
            done.signal()
        }
        guard done.wait(timeout: deadline.dispatchTime) == .success else { return .timedOut }
        return box.withLock { $0 } ?? .timedOut
    }

    /// What a thrown error says to a script.
    static func message(of error: any Error) -> String {
        if let hookError = error as? HookError { return hookError.message }
        if let localized = (error as? any LocalizedError)?.errorDescription { return localized }
        return String(describing: error)
    }

    /// Why a value cannot cross (its type, `"a table nested deeper than 32 levels"`), or nil.
    static func problem(_ value: HookValue, depth: Int = 0) -> String? {
        switch value {
        case .nil, .boolean, .integer, .number, .string:
            return nil
        case .table(let table):
            guard depth < maximumDepth else { return "a table nested deeper than \(maximumDepth) levels" }
            for element in table.elements {
                if let problem = problem(element, depth: depth + 1) { return problem }
            }
            for pair in table.pairs {
                if case .table = pair.key { return "a table used as a key" }
                if let problem = problem(pair.key, depth: depth + 1) ?? problem(pair.value, depth: depth + 1) { return problem }
            }
            return nil
        case .cycle:
            return "a table that contains itself"
        case .tooDeep:
            return "a table nested deeper than \(maximumDepth) levels"
        case .null:
            return "json.null"
        case .readOnly(_, let inner), .lockedCopy(let inner):
            return problem(inner, depth: depth)
        case .function, .chunk, .object, .unsupported:
            return "a \(value.typeName)"
        }
    }
}
