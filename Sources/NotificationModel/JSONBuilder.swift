/// What ``JSONScanner`` builds the values of a JSON text with.
///
/// The scanner knows the grammar — what is valid JSON, how numbers are typed, what a string's
/// bytes are, how deep the text may nest — and nothing of the values it makes; a builder knows
/// its values and nothing of the grammar. So one scanner reads JSON for every consumer:
/// ``JSONValue/Builder`` makes ``JSONValue``s (files, `serve` lines), and the script host's
/// `json.decode` makes Lua values straight from the text, without a ``JSONValue`` in between
/// (a Lua string is bytes, a ``JSONValue`` string is `String`; an object's repeated key keeps
/// its first place in a Lua table but nowhere in a dictionary).
///
/// The scanner calls the builder in the order of the text: a container is begun, its elements
/// or members are added as they are read, then it is ended. A builder that keeps state across
/// calls (a limit, a count) is a value the caller passes `inout` and reads afterwards.
public protocol JSONBuilder {
    /// A value: what every method below gives.
    associatedtype Value
    /// An object's key, made from the bytes of a string.
    associatedtype Key
    /// An array being read.
    associatedtype Elements
    /// An object being read.
    associatedtype Members

    /// JSON `null`.
    mutating func null() -> Value
    /// `true` or `false`.
    mutating func bool(_ value: Bool) -> Value
    /// A number written without a fraction or exponent that fits `Int64`.
    mutating func integer(_ value: Int64) -> Value
    /// Any other number (finite: the scanner refuses `1e400`).
    mutating func number(_ value: Double) -> Value
    /// A string: its bytes with the escapes resolved, valid UTF-8. The buffer lives only for
    /// the call.
    mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) -> Value
    /// An object's key, as ``string(_:)`` gives a string.
    mutating func key(_ utf8: UnsafeBufferPointer<UInt8>) -> Key

    /// An empty array to add the elements to.
    mutating func beginArray() -> Elements
    /// Adds the next element.
    mutating func append(_ element: Value, to array: inout Elements)
    /// The array, all its elements added.
    mutating func endArray(_ array: Elements) -> Value
    /// An empty object to add the members to.
    mutating func beginObject() -> Members
    /// Adds the next member. A key can come more than once; the last value counts.
    mutating func add(_ value: Value, for key: Key, to object: inout Members)
    /// The object, all its members added.
    mutating func endObject(_ object: Members) -> Value

    /// Whether reading should stop: asked every ``JSONScanner/checkInterval`` values, so that a
    /// long text cannot run past a limit of the caller's. True ends the read with
    /// ``JSONReadError/Problem/stopped``. A builder that never stops need not implement it.
    mutating func shouldStop() -> Bool

    /// Told, for each member of the top-level object, before it is added: how many bytes its
    /// value's text holds without the whitespace between tokens — its size as sent, as APNs
    /// counts a payload — measured in the one read of the text. A builder that has no use for
    /// it need not implement it.
    mutating func measured(_ key: Key, sentBytes: Int)
}

extension JSONBuilder {
    /// Never stops.
    @inlinable
    public mutating func shouldStop() -> Bool { false }

    /// Keeps nothing.
    @inlinable
    public mutating func measured(_ key: Key, sentBytes: Int) {}
}
