import LuaSandbox

/// A value a hook takes or returns: data only, as a script and the app can both hold it.
///
/// A Lua table whose keys are exactly `1...n` comes as an ``array(_:)``, any other table
/// (an empty one too) as a ``table(_:)``; an empty ``array(_:)`` reaches the script as a table
/// that `json.encode` writes as `[]`. Strings are bytes (Lua strings need not be UTF-8).
public enum HookValue: Sendable, Hashable {
    /// Lua `nil`.
    case `nil`
    /// A boolean.
    case boolean(Bool)
    /// An integer (Lua keeps integers and floats apart).
    case integer(Int64)
    /// A float.
    case number(Double)
    /// A string: its bytes.
    case string([UInt8])
    /// A table whose keys are `1...n`: its values in order.
    case array([HookValue])
    /// Any other table: its keys (never tables) and values.
    case table([HookValue: HookValue])

    /// A string of the UTF-8 bytes of `text`.
    public static func text(_ text: String) -> HookValue { .string(Array(text.utf8)) }

    /// The string as UTF-8 text, when it is a string of valid UTF-8.
    public var textValue: String? {
        if case .string(let bytes) = self { return UTF8Text.string(bytes) }
        return nil
    }
}

/// A function the embedding app lends scripts as `hooks.NAME(...)` (see
/// ``ScriptHost/register(hook:_:)``). It gets the script's arguments and returns the script's
/// results; what it throws reaches the script as `nil, message`.
///
/// It runs on a thread of the host's own while the script waits, under the request's deadline:
/// when the deadline comes first, the script is stopped there (reason `time`) and the hook's
/// results, whenever it returns, are dropped. A hook may block (a keychain, a network call);
/// it is never interrupted.
public typealias Hook = @Sendable (_ arguments: [HookValue]) throws -> [HookValue]

/// An error a hook can throw to give the script a message of its own (`nil, message`).
/// Other errors reach the script as their `description`.
public struct HookError: Error, Sendable, CustomStringConvertible {
    /// What the script gets as its second result.
    public let message: String

    /// An error with this message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
