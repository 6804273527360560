/// Where a value writes itself as JSON: the output twin of ``JSONBuilder``.
///
/// A type with a JSON shape writes it once, in its own key order, into any sink
/// (``JSONWritable/write(into:)``), and each sink makes what it makes of the calls:
/// ``JSONWriter`` text, compact or indented; ``JSONValueSink`` a ``JSONValue``; the script
/// host a Lua value. So a value's `jsonValue`, its compact line and its pretty text all come
/// from one writer and cannot drift apart.
///
/// The calls come in the order of the text: a container is begun, its elements — for an
/// object, a ``key(_:)`` and then a value each — are written, then it is ended.
///
/// ```swift
/// sink.beginObject()
/// sink.key("level")
/// sink.write(string: "warn")
/// sink.key("tags")
/// sink.beginArray()
/// sink.write(integer: 1)
/// sink.endArray()
/// sink.endObject()
/// ```
public protocol JSONSink {
    /// Writes `null`.
    mutating func writeNull()
    /// Writes `true` or `false`.
    mutating func write(bool: Bool)
    /// Writes an integer (JSON text without a fraction).
    mutating func write(integer: Int64)
    /// Writes a number that stays a float (JSON text with a fraction or exponent). JSON has no
    /// text for a non-finite one: the text writer notes it as its ``JSONWriter/failure``.
    mutating func write(number: Double)
    /// Writes a string.
    mutating func write(string: String)
    /// Begins an array: its elements follow, then ``endArray()``.
    mutating func beginArray()
    /// Ends the array begun last.
    mutating func endArray()
    /// Begins an object: a ``key(_:)`` and a value for each member follow, then ``endObject()``.
    mutating func beginObject()
    /// The key of the open object's next member; its value is written next.
    mutating func key(_ key: String)
    /// ``key(_:)`` for a key fixed in the program (a shape's own member name): ASCII, with
    /// nothing to escape. The text writer copies it as it is.
    mutating func key(literal key: StaticString)
    /// Ends the object begun last.
    mutating func endObject()

    /// Writes a whole ``JSONValue``, its objects' keys in `order`. The protocol's own
    /// implementation writes it part by part through the calls above; a sink with a better way
    /// has its own (``JSONValueSink`` takes the value whole).
    mutating func write(_ value: JSONValue, order: JSONKeyOrder)
}

/// A value with a JSON shape, written by one writer into any ``JSONSink``.
public protocol JSONWritable {
    /// Writes the value into `sink`, its objects' keys in the shape's order.
    func write(into sink: inout some JSONSink)
}

extension JSONSink {
    /// The key as any other (``key(_:)``).
    @inlinable
    public mutating func key(literal key: StaticString) {
        self.key(key.withUTF8Buffer { String(decoding: $0, as: UTF8.self) })
    }

    /// Writes `value` part by part, its objects' keys in `order` (``JSONKeyOrder/unordered``:
    /// as the dictionaries hold them).
    public mutating func write(_ value: JSONValue, order: JSONKeyOrder) {
        value.write(into: &self, order: order)
    }

    /// Writes `value` with its objects' keys sorted.
    @inlinable
    public mutating func write(_ value: JSONValue) {
        write(value, order: .sorted)
    }

    /// Writes a value that writes itself.
    @inlinable
    public mutating func write(_ value: some JSONWritable) {
        value.write(into: &self)
    }

    /// Writes the elements as an array.
    @inlinable
    public mutating func write<Elements: Sequence>(array elements: Elements) where Elements.Element: JSONWritable {
        beginArray()
        for element in elements { element.write(into: &self) }
        endArray()
    }

    /// Writes the strings as an array.
    @inlinable
    public mutating func write<Elements: Sequence<String>>(strings elements: Elements) {
        beginArray()
        for element in elements { write(string: element) }
        endArray()
    }

    /// Writes a string, or `null` for nil.
    @inlinable
    public mutating func write(optional string: String?) {
        if let string { write(string: string) } else { writeNull() }
    }
}

extension JSONWritable {
    /// The value as a ``JSONValue``: what its writer writes into a ``JSONValueSink``.
    public var jsonValue: JSONValue {
        var sink = JSONValueSink()
        write(into: &sink)
        return sink.value
    }

    /// The value as JSON text in UTF-8, in its shape's key order: compact, or indented by two
    /// spaces for people when `prettyPrinted`.
    ///
    /// - Throws: ``JSONError`` for a non-finite number, naming where it is.
    public func jsonBytes(prettyPrinted: Bool = false) throws(JSONError) -> [UInt8] {
        var writer = JSONWriter(prettyPrinted: prettyPrinted)
        write(into: &writer)
        if let failure = writer.failure { throw failure }
        return writer.bytes
    }

    /// ``jsonBytes(prettyPrinted:)`` as a string.
    public func jsonString(prettyPrinted: Bool = false) throws(JSONError) -> String {
        String(decoding: try jsonBytes(prettyPrinted: prettyPrinted), as: UTF8.self)
    }
}
