/// A call from a script into the host.
package struct HostCall {
    /// The arguments, copied out of Lua.
    package let arguments: [LuaOutput]
    /// For a read or write of a host object's key: the object's host-side id.
    package let objectID: Int32?

    /// The argument at `index` (0-based), `nil` past the end.
    package subscript(index: Int) -> LuaOutput {
        index < arguments.count ? arguments[index] : .nil
    }
}

/// What a host function gives back to the script.
package enum HostReturn: Sendable {
    /// These values are returned.
    case values([LuaInput])
    /// This error is raised in the script, with the caller's position in front of it.
    case error(String)
    /// A limit was hit while the host worked (the deadline came during a download): the run
    /// is stopped, and nothing can catch it.
    case kill(LimitKind)

    /// Nothing is returned.
    package static let none = HostReturn.values([])
}

/// A Swift function that scripts call. It runs on the thread that runs the script, and never
/// raises: what it returns is turned into Lua results or an error after it has returned. It
/// may use its sandbox (make and read values), but Lua it runs there cannot call the host: such
/// a call raises an error in that Lua.
package typealias HostFunction = (HostCall) -> HostReturn

/// A script's access to a text field of a host object (see
/// ``LuaSandbox/defineClass(name:slots:textFields:index:newIndex:textField:)``).
package enum TextFieldAccess {
    /// The script reads the field.
    case read
    /// The script assigns a string: its bytes, valid during the call only.
    case write(UnsafeBufferPointer<UInt8>)
}

/// What a class's text fields go to: the object's host-side id, the field's index among the
/// class's text fields, and the access; it returns what a host function would (a read's
/// value, nothing for a write, or an error or the kill). It runs as a host function does.
package typealias TextFieldFunction = (_ objectID: Int32, _ field: Int, _ access: TextFieldAccess) -> HostReturn

/// How the arguments of a host function are prepared before it sees them.
package enum HostArguments: Sendable {
    /// As they are.
    case raw
    /// `string.format(...)` of them: one string (for `log.info("%d", n)`).
    case formatted
    /// `tostring` of each, joined by tabs: one string (for `print`).
    case printed
}
