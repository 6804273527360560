import LuaSandbox
import NotificationModel

/// `store.get(key)`, `store.set(key, value)` and `store.increment(key [, by [, {min =, max =}]])`:
/// the app's key-value store (``KeyValueStore``).
///
/// Keys are UTF-8 strings. Values are strings (UTF-8), numbers (integers stay integers) and
/// booleans; `nil` deletes. A value of another type, a store that would pass 64 KB, an
/// increment of a value that is not a number, and a state file that cannot be written raise an
/// error. A corrupt state file is reported as a host warning on the request.
struct StoreModule: ScriptModule {
    unowned let host: ModuleHost

    func install() {
        host.function("get", in: "store") { binding, call in
            Arguments.text(call, 0, "get").then { key in
                do throws(StoreError) {
                    let value = try host.app.store.get(key, report: binding.hostWarnings)
                    return .values([value.map(ValueConversion.lua) ?? .nil])
                } catch {
                    return .error(error.message)
                }
            }
        }
        host.function("set", in: "store") { binding, call in
            Arguments.text(call, 0, "set").then { key in
                let value: JSONValue?
                switch call[1] {
                case .nil: value = nil
                case .boolean(let b): value = .bool(b)
                case .integer(let i): value = .integer(i)
                case .number(let d) where d.isFinite: value = .number(d)
                case .number: return .error("bad argument #2 to 'set' (the number must be finite)")
                case .string(let s):
                    guard let text = s.utf8String else { return .error("bad argument #2 to 'set' (string is not valid UTF-8)") }
                    value = .string(text)
                default:
                    return .error("bad argument #2 to 'set' (string, number, boolean or nil expected, got \(call[1].typeName))")
                }
                do throws(StoreError) {
                    try host.app.store.set(key, value, report: binding.hostWarnings)
                    return .none
                } catch {
                    return .error(error.message)
                }
            }
        }
        host.function("increment", in: "store") { binding, call in
            Arguments.text(call, 0, "increment").then { key in
                let by: JSONValue
                switch call[1] {
                case .nil: by = .integer(1)
                case .integer(let i): by = .integer(i)
                case .number(let d) where d.isFinite: by = .number(d)
                default: return .error("bad argument #2 to 'increment' (finite number expected, got \(Arguments.describe(call[1])))")
                }
                let bounds: ClosedBounds
                switch Self.incrementBounds(call[2]) {
                case .success(let b): bounds = b
                case .failure(let f): return .error(f.message)
                }
                do throws(StoreError) {
                    return .values([ValueConversion.lua(try host.app.store.increment(key, by: by, within: bounds, report: binding.hostWarnings))])
                } catch {
                    return .error(error.message)
                }
            }
        }
    }

    /// `{min =, max =}` of `store.increment`: finite numbers, either may be left out, `min <= max`.
    private static func incrementBounds(_ value: LuaOutput) -> Result<ClosedBounds, HostFailure> {
        var bounds = ClosedBounds()
        guard case .table(let t) = value else {
            if value.isNil { return .success(bounds) }
            return .failure(HostFailure("bad argument #3 to 'increment' (table {min =, max =} expected, got \(value.typeName))"))
        }
        if !t.elements.isEmpty {
            return .failure(HostFailure("store.increment: the bounds are {min =, max =}, not a list"))
        }
        for pair in t.pairs {
            let bound: JSONValue
            switch pair.value {
            case .integer(let i): bound = .integer(i)
            case .number(let d) where d.isFinite: bound = .number(d)
            default:
                return .failure(HostFailure("store.increment: \(pair.key.stringValue ?? "?") must be a finite number"))
            }
            switch pair.key.stringValue {
            case "min": bounds.min = bound
            case "max": bounds.max = bound
            default:
                return .failure(HostFailure("store.increment: unknown option '\(pair.key.stringValue ?? "?")'; options are min, max"))
            }
        }
        if let min = bounds.min?.doubleValue, let max = bounds.max?.doubleValue, min > max {
            return .failure(HostFailure("store.increment: min must not be greater than max"))
        }
        return .success(bounds)
    }
}
