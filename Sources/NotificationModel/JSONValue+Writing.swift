import Foundation

extension JSONValue {
    /// The value as JSON text in UTF-8.
    ///
    /// Compact by default (no spaces or newlines); `prettyPrinted` indents by two spaces for
    /// people. Strings escape `"`, `\` and the control characters below U+0020 (`/` is left
    /// alone); integers are written without a fraction; other numbers as the shortest text that
    /// reads back as the same double, with `.0` kept on integral ones (`2.0`) so they stay floats.
    ///
    /// - Throws: ``JSONError`` for a non-finite number, naming where it is.
    public func jsonData(keyOrder: JSONKeyOrder = .sorted, prettyPrinted: Bool = false) throws(JSONError) -> Data {
        Data(try jsonBytes(keyOrder: keyOrder, prettyPrinted: prettyPrinted))
    }

    /// The value as JSON text; see ``jsonData(keyOrder:prettyPrinted:)``.
    public func jsonString(keyOrder: JSONKeyOrder = .sorted, prettyPrinted: Bool = false) throws(JSONError) -> String {
        String(decoding: try jsonBytes(keyOrder: keyOrder, prettyPrinted: prettyPrinted), as: UTF8.self)
    }

    /// The value as JSON text in UTF-8 bytes; see ``jsonData(keyOrder:prettyPrinted:)``.
    public func jsonBytes(keyOrder: JSONKeyOrder = .sorted, prettyPrinted: Bool = false) throws(JSONError) -> [UInt8] {
        var writer = JSONWriter(prettyPrinted: prettyPrinted)
        write(into: &writer, order: keyOrder)
        if let failure = writer.failure { throw failure }
        return writer.bytes
    }

    /// Writes the value into `sink` part by part, its objects' keys in `order`: the one walk
    /// of a ``JSONValue`` that every sink's text, value or Lua value comes from. With
    /// ``JSONKeyOrder/unordered`` the keys go in the order the dictionaries hold them, by a walk
    /// that is specialized for the sink where it is called (a request's `userInfo` into Lua).
    @inlinable
    public func write(into sink: inout some JSONSink, order: JSONKeyOrder) {
        if order.isUnordered {
            write(unorderedInto: &sink)
        } else if order.first.isEmpty, order.nested.isEmpty {
            write(sortedInto: &sink)
        } else {
            write(orderedInto: &sink, order: order)
        }
    }

    /// How many members an object may have to be sorted by insertion (quadratic) on the stack;
    /// a larger one is sorted in O(n log n).
    @usableFromInline static var fewMembers: Int { 16 }

    /// The walk with every object's keys sorted (``JSONKeyOrder/sorted``), all the way down:
    /// no order is handed from level to level, and an object's members are sorted by their
    /// places in the dictionary (no pair is copied out).
    @inlinable
    func write(sortedInto sink: inout some JSONSink) {
        switch self {
        case .null, .bool, .integer, .number, .string:
            write(unorderedInto: &sink)
        case .array(let array):
            sink.beginArray()
            for element in array { element.write(sortedInto: &sink) }
            sink.endArray()
        case .object(let object):
            sink.beginObject()
            if object.count <= Self.fewMembers {
                // Few members (most objects): sorted as they come, on the stack; no array made.
                withUnsafeTemporaryAllocation(of: [String: JSONValue].Index.self, capacity: object.count) { places in
                    var count = 0
                    for place in object.indices {
                        var at = count
                        while at > 0, JSONKeyOrder.precedes(object[place].key, object[places[at - 1]].key) { at -= 1 }
                        if at < count { (places.baseAddress! + at + 1).moveInitialize(from: places.baseAddress! + at, count: count - at) }
                        (places.baseAddress! + at).initialize(to: place)
                        count += 1
                    }
                    for place in places[..<count] {
                        sink.key(object[place].key)
                        object[place].value.write(sortedInto: &sink)
                    }
                    places.baseAddress?.deinitialize(count: count)
                }
            } else {
                var places = Array(object.indices)
                places.sort { JSONKeyOrder.precedes(object[$0].key, object[$1].key) }
                for place in places {
                    sink.key(object[place].key)
                    object[place].value.write(sortedInto: &sink)
                }
            }
            sink.endObject()
        }
    }

    /// The walk with every object's keys in the order its dictionary holds them.
    @inlinable
    func write(unorderedInto sink: inout some JSONSink) {
        switch self {
        case .null: sink.writeNull()
        case .bool(let bool): sink.write(bool: bool)
        case .integer(let integer): sink.write(integer: integer)
        case .number(let double): sink.write(number: double)
        case .string(let string): sink.write(string: string)
        case .array(let array):
            sink.beginArray()
            for element in array { element.write(unorderedInto: &sink) }
            sink.endArray()
        case .object(let object):
            sink.beginObject()
            for (key, value) in object {
                sink.key(key)
                value.write(unorderedInto: &sink)
            }
            sink.endObject()
        }
    }

    /// The walk with objects' keys in `order` (not ``JSONKeyOrder/unordered``).
    @inlinable
    func write(orderedInto sink: inout some JSONSink, order: JSONKeyOrder) {
        switch self {
        case .null, .bool, .integer, .number, .string:
            write(unorderedInto: &sink)
        case .array(let array):
            sink.beginArray()
            for element in array { element.write(into: &sink, order: order) }
            sink.endArray()
        case .object(let object):
            sink.beginObject()
            if order.first.isEmpty {
                for (key, value) in object.sorted(by: { JSONKeyOrder.precedes($0.key, $1.key) }) {
                    sink.key(key)
                    value.write(into: &sink, order: order.child(key))
                }
            } else {
                var written = 0
                for key in order.first {
                    guard let value = object[key] else { continue }
                    sink.key(key)
                    value.write(into: &sink, order: order.child(key))
                    written += 1
                }
                if written < object.count {
                    let rest = object.filter { !order.preferred.contains($0.key) }
                    for (key, value) in rest.sorted(by: { JSONKeyOrder.precedes($0.key, $1.key) }) {
                        sink.key(key)
                        value.write(into: &sink, order: order.child(key))
                    }
                }
            }
            sink.endObject()
        }
    }
}
