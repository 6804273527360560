/// The ``JSONSink`` that makes a ``JSONValue``: what every ``JSONWritable``'s `jsonValue` is
/// built with. An object is a dictionary, so the order its keys were written in is not kept.
public struct JSONValueSink: JSONSink {
    /// The value written, once it is whole (null before).
    public private(set) var value: JSONValue = .null
    /// For each array or object begun and not yet ended, innermost last: whether it is an array.
    private var open: [Bool] = []
    private var arrays: [[JSONValue]] = []
    private var objects: [[String: JSONValue]] = []
    /// The keys of the members whose values are being written.
    private var keys: [String] = []

    /// A sink that holds nothing yet.
    public init() {}

    /// Writes `null`.
    public mutating func writeNull() { put(.null) }
    /// Writes a boolean.
    public mutating func write(bool: Bool) { put(.bool(bool)) }
    /// Writes an integer.
    public mutating func write(integer: Int64) { put(.integer(integer)) }
    /// Writes a float (a non-finite one too: a ``JSONValue`` can hold it).
    public mutating func write(number: Double) { put(.number(number)) }
    /// Writes a string.
    public mutating func write(string: String) { put(.string(string)) }
    /// Takes a whole value as it is: no walk, whatever `order` says (a dictionary keeps none).
    public mutating func write(_ value: JSONValue, order: JSONKeyOrder) { put(value) }

    /// Begins an array.
    public mutating func beginArray() {
        open.append(true)
        arrays.append([])
    }

    /// Ends the array begun last.
    public mutating func endArray() {
        open.removeLast()
        put(.array(arrays.removeLast()))
    }

    /// Begins an object.
    public mutating func beginObject() {
        open.append(false)
        objects.append([:])
    }

    /// The key of the open object's next member.
    public mutating func key(_ key: String) {
        keys.append(key)
    }

    /// Ends the object begun last.
    public mutating func endObject() {
        open.removeLast()
        put(.object(objects.removeLast()))
    }

    private mutating func put(_ element: JSONValue) {
        guard let isArray = open.last else {
            value = element
            return
        }
        if isArray {
            arrays[arrays.count - 1].append(element)
        } else {
            objects[objects.count - 1][keys.removeLast()] = element
        }
    }
}
