import Dispatch
import Foundation
import LuaSandbox
import Synchronization

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
    static func call(
        _ hook: @escaping Hook, with arguments: [HookValue], on pool: LuaThreadPool, until deadline: Deadline, wait: HostWait = HostWait()
    ) -> Outcome {
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
        guard wait.wait(for: done, until: deadline) else { return .timedOut }
        return box.withLock { $0 } ?? .timedOut
    }

    /// What a thrown error says to a script.
    static func message(of error: any Error) -> String {
        if let hookError = error as? HookError { return hookError.message }
        if let localized = (error as? any LocalizedError)?.errorDescription { return localized }
        return String(describing: error)
    }

    /// Why a value cannot cross (its type, `"a table nested deeper than 32 levels"`).
    struct Problem: Error {
        let message: String
    }

    /// The value a hook gets for a script's argument.
    static func hookValue(_ value: LuaOutput, depth: Int = 0) throws(Problem) -> HookValue {
        switch value {
        case .nil: return .nil
        case .boolean(let b): return .boolean(b)
        case .integer(let i): return .integer(i)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s.bytes)
        case .table(let table):
            guard depth < maximumDepth else { throw tooDeep }
            var elements: [HookValue] = []
            for element in table.elements { elements.append(try hookValue(element, depth: depth + 1)) }
            if table.isArray { return .array(elements) }
            var entries: [HookValue: HookValue] = [:]
            for pair in table.pairs {
                if case .table = pair.key { throw Problem(message: "a table used as a key") }
                entries[try hookValue(pair.key, depth: depth + 1)] = try hookValue(pair.value, depth: depth + 1)
            }
            return .table(entries)
        case .cycle: throw Problem(message: "a table that contains itself")
        case .tooDeep: throw tooDeep
        case .null: throw Problem(message: "json.null")
        case .object, .unsupported: throw Problem(message: "a \(value.typeName)")
        }
    }

    /// The value a script gets for a hook's result.
    static func luaValue(_ value: HookValue, depth: Int = 0) throws(Problem) -> LuaInput {
        switch value {
        case .nil: return .nil
        case .boolean(let b): return .boolean(b)
        case .integer(let i): return .integer(i)
        case .number(let d): return .number(d)
        case .string(let bytes): return .string(LuaString(bytes: bytes))
        case .array(let elements):
            guard depth < maximumDepth else { throw tooDeep }
            var out: [LuaInput] = []
            out.reserveCapacity(elements.count)
            for element in elements { out.append(try luaValue(element, depth: depth + 1)) }
            return .table(LuaTable(array: out))
        case .table(let entries):
            guard depth < maximumDepth else { throw tooDeep }
            var pairs: [LuaTablePair<LuaInput>] = []
            pairs.reserveCapacity(entries.count)
            for (key, value) in entries {
                if case .array = key { throw Problem(message: "a table used as a key") }
                if case .table = key { throw Problem(message: "a table used as a key") }
                pairs.append(LuaTablePair(key: try luaValue(key, depth: depth + 1), value: try luaValue(value, depth: depth + 1)))
            }
            return .table(LuaTable(pairs: pairs))
        }
    }

    private static var tooDeep: Problem { Problem(message: "a table nested deeper than \(maximumDepth) levels") }
}
