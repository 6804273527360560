import LuaSandbox
import NotificationModel

/// Builds Lua values for `json.decode` as ``JSONScanner`` reads the text, with no
/// ``JSONValue`` in between: strings stay bytes, `null` is ``LuaInput/null``, and an object's
/// repeated key keeps the place of its first appearance with its last value.
///
/// Every ``JSONScanner/checkInterval`` values it asks `check` whether a limit of the run has
/// passed, and stops the read when one has (``stoppedBy``), so that a long text cannot run
/// past the script's CPU budget or deadline inside the host.
struct LuaJSONBuilder: JSONBuilder {
    /// An object being read: its pairs in the order of their keys' first appearance.
    struct Members {
        var pairs: [LuaTablePair<LuaInput>] = []
        /// Where each key's pair is, once there are enough pairs to look them up by hash.
        var index: [[UInt8]: Int] = [:]
    }

    /// Objects with at most this many pairs find a repeated key by looking through them.
    private static let linearLookup = 8

    private let check: () -> LimitKind?
    /// The limit that stopped the read, if one did.
    private(set) var stoppedBy: LimitKind?

    init(check: @escaping () -> LimitKind?) { self.check = check }

    func null() -> LuaInput { .null }
    func bool(_ value: Bool) -> LuaInput { .boolean(value) }
    func integer(_ value: Int64) -> LuaInput { .integer(value) }
    func number(_ value: Double) -> LuaInput { .number(value) }
    func string(_ utf8: UnsafeBufferPointer<UInt8>) -> LuaInput { .string(LuaString(bytes: Array(utf8))) }
    func key(_ utf8: UnsafeBufferPointer<UInt8>) -> [UInt8] { Array(utf8) }
    func beginArray() -> [LuaInput] { [] }
    func append(_ element: LuaInput, to array: inout [LuaInput]) { array.append(element) }
    func endArray(_ array: [LuaInput]) -> LuaInput { .table(LuaTable(array: array)) }
    func beginObject() -> Members { Members() }
    func endObject(_ object: Members) -> LuaInput { .table(LuaTable(pairs: object.pairs)) }

    func add(_ value: LuaInput, for key: [UInt8], to object: inout Members) {
        let pair = LuaTablePair(key: LuaInput.string(LuaString(bytes: key)), value: value)
        if object.pairs.count <= Self.linearLookup {
            if let at = object.pairs.firstIndex(where: { $0.key == pair.key }) {
                object.pairs[at] = pair
                return
            }
            object.pairs.append(pair)
            if object.pairs.count > Self.linearLookup {
                for (at, existing) in object.pairs.enumerated() {
                    if case .string(let name) = existing.key { object.index[name.bytes] = at }
                }
            }
            return
        }
        if let at = object.index[key] {
            object.pairs[at] = pair
        } else {
            object.index[key] = object.pairs.count
            object.pairs.append(pair)
        }
    }

    mutating func shouldStop() -> Bool {
        guard let kind = check() else { return false }
        stoppedBy = kind
        return true
    }
}
