import LuaSandbox

/// A value a hook takes or returns: nil, booleans, numbers, strings (bytes) and tables of them.
public typealias HookValue = LuaValue

/// A function the embedding app lends scripts as `hooks.NAME(...)`. It runs on the script's
/// thread, under the request's deadline; what it throws reaches the script as `nil, message`.
public typealias Hook = @Sendable (_ arguments: [HookValue]) throws -> [HookValue]
