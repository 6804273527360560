import LuaSandbox

// The values hooks take and return, so that an app that registers hooks needs only ScriptHost.
@_exported import enum LuaSandbox.LuaValue
@_exported import struct LuaSandbox.LuaString
@_exported import struct LuaSandbox.LuaTable
@_exported import struct LuaSandbox.LuaTablePair

/// A value a hook takes or returns: nil, booleans, numbers, strings (bytes) and tables of them.
public typealias HookValue = LuaValue

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
