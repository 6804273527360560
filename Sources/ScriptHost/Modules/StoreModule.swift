import LuaSandbox
import NotificationModel

/// `store.get`, `store.set`, `store.increment`: the app's key-value store.
extension HostedSandbox {
    func installStore() {
        function("get", in: "store") { [unowned self] _, call in
            Arguments.text(call, 0, "get").then { key in
                .values([app.store.get(key).map(ValueConversion.lua) ?? .nil])
            }
        }
        function("set", in: "store") { [unowned self] _, call in
            Arguments.text(call, 0, "set").then { key in
                let value: JSONValue?
                switch call[1] {
                case .nil: value = nil
                case .boolean(let b): value = .bool(b)
                case .integer(let i): value = .integer(i)
                case .number(let d) where d.isFinite: value = .number(d)
                case .string(let s):
                    guard let text = s.utf8String else { return .error("store.set: the value is not valid UTF-8") }
                    value = .string(text)
                default:
                    return .error("bad argument #2 to 'set' (string, number, boolean or nil expected, got \(Arguments.describe(call[1])))")
                }
                do throws(StoreError) {
                    try app.store.set(key, value)
                    return .none
                } catch {
                    return .error(error.message)
                }
            }
        }
        function("increment", in: "store") { [unowned self] _, call in
            Arguments.text(call, 0, "increment").then { key in
                let by: JSONValue
                switch call[1] {
                case .nil: by = .integer(1)
                case .integer(let i): by = .integer(i)
                case .number(let d) where d.isFinite: by = .number(d)
                default: return .error("bad argument #2 to 'increment' (number expected, got \(Arguments.describe(call[1])))")
                }
                do throws(StoreError) {
                    return .values([ValueConversion.lua(try app.store.increment(key, by: by))])
                } catch {
                    return .error(error.message)
                }
            }
        }
    }
}
