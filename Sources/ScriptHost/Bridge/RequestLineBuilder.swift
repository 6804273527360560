import LuaSandbox
import NotificationModel

/// Builds a request line's ``JSONValue`` (as ``JSONValue/Builder`` does) and, in the same read,
/// the top-level `payload` member in the bridge's format, as ``LuaJSONSink`` writes it: the
/// `userInfo` a script is given, without a second walk of the payload's dictionaries for it.
///
/// `serve` reads its lines with it and hands ``payloadEncoding`` on with the request
/// (``NotificationRequest/userInfoEncoding``). The encoding keeps the text's order. A payload
/// with an object whose dictionary holds fewer members than its text wrote — a key written
/// twice, or two keys `String` holds equal though their bytes differ (`"é"` and `"e\u0301"`),
/// which Lua keeps apart — gives no encoding: it is written from the dictionary, as any
/// request's is. Of a repeated `payload` member, the last is encoded, as the dictionary keeps it.
package struct RequestLineBuilder: JSONBuilder {
    private var values: JSONValue.Builder
    /// The payload being written, while it is.
    private var sink: LuaJSONSink?
    /// The arrays and objects open around the value being read.
    private var depth = 0
    /// Whether the top-level key read last is `payload`: the next value begins the payload.
    private var payloadIsNext = false
    /// Whether the payload being written is an object (only an object is a `userInfo`).
    private var payloadIsObject = false
    /// Whether an object in the payload merged members in its dictionary (see above).
    private var payloadMerged = false
    /// The top-level `payload` member in the bridge's format, once read: nil when there is
    /// none or it is not an object.
    package private(set) var payloadEncoding: UserInfoEncoding?

    /// Reads `line` as ``JSONScanner/readSkippingTooDeep(_:into:maximumDepth:)`` does, with a
    /// builder of this kind; the scanner is specialized here, beside the builder, so that its
    /// calls are made in place.
    package static func read(
        _ line: UnsafeBufferPointer<UInt8>, maximumDepth: Int
    ) throws(JSONReadError) -> (value: JSONValue, skippedTooDeep: Bool, builder: RequestLineBuilder) {
        var builder = RequestLineBuilder()
        let read = try JSONScanner.readSkippingTooDeep(line, into: &builder, maximumDepth: maximumDepth)
        return (read.value, read.skippedTooDeep, builder)
    }

    /// A builder that keeps the size as sent of the `payload` member (``sentSize``).
    package init() {
        values = JSONValue.Builder(measuring: "payload")
    }

    /// Gives `request` the payload's encoding (``NotificationRequest/userInfoEncoding``) when
    /// its payload's `userInfo` is the dictionary this line's `payload` was read into.
    package func givePayloadEncoding(to request: inout NotificationRequest) {
        guard let payloadEncoding, payloadEncoding.bytes(for: request.payload.userInfo) != nil else { return }
        request.userInfoEncoding = payloadEncoding
    }

    /// The size as sent of the `payload` member, as ``JSONValue/Builder/sentSize`` has it.
    package var sentSize: Int? { values.sentSize }

    package mutating func measured(_ key: String, sentBytes: Int) {
        values.measured(key, sentBytes: sentBytes)
    }

    package mutating func null() -> JSONValue {
        beginValue()
        sink?.writeNull()
        endValue()
        return values.null()
    }

    package mutating func bool(_ value: Bool) -> JSONValue {
        beginValue()
        sink?.write(bool: value)
        endValue()
        return values.bool(value)
    }

    package mutating func integer(_ value: Int64) -> JSONValue {
        beginValue()
        sink?.write(integer: value)
        endValue()
        return values.integer(value)
    }

    package mutating func number(_ value: Double) -> JSONValue {
        beginValue()
        sink?.write(number: value)
        endValue()
        return values.number(value)
    }

    package mutating func string(_ utf8: UnsafeBufferPointer<UInt8>) -> JSONValue {
        beginValue()
        sink?.write(utf8: utf8)
        endValue()
        return values.string(utf8)
    }

    package mutating func key(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        let key = values.key(utf8)
        if depth == 1 {
            payloadIsNext = key == "payload"
        } else {
            sink?.key(utf8: utf8)
        }
        return key
    }

    package mutating func beginArray() -> [JSONValue] {
        beginValue()
        sink?.beginArray()
        depth += 1
        return values.beginArray()
    }

    package mutating func append(_ element: JSONValue, to array: inout [JSONValue]) {
        values.append(element, to: &array)
    }

    package mutating func endArray(_ array: [JSONValue]) -> JSONValue {
        depth -= 1
        sink?.endArray()
        endValue()
        return values.endArray(array)
    }

    package mutating func beginObject() -> [String: JSONValue] {
        let begins = payloadIsNext && depth == 1
        beginValue()
        if begins { payloadIsObject = true }
        sink?.beginObject()
        depth += 1
        return values.beginObject()
    }

    package mutating func add(_ value: JSONValue, for key: String, to object: inout [String: JSONValue]) {
        values.add(value, for: key, to: &object)
    }

    package mutating func endObject(_ object: [String: JSONValue]) -> JSONValue {
        depth -= 1
        if let written = sink?.openCount, written != object.count { payloadMerged = true }
        sink?.endObject()
        endValue(object)
        return values.endObject(object)
    }

    /// Before a value: the payload's own value begins the encoding (a later `payload` member
    /// begins it again, and the earlier one is dropped).
    private mutating func beginValue() {
        guard payloadIsNext, depth == 1 else { return }
        payloadIsNext = false
        payloadIsObject = false
        payloadMerged = false
        payloadEncoding = nil
        sink = LuaJSONSink(writer: LuaValueWriter(capacity: 512))
    }

    /// After a value: the payload's own value, ended, ends the encoding; an object's (the
    /// dictionary it was read into) is kept.
    private mutating func endValue(_ object: [String: JSONValue]? = nil) {
        guard depth == 1, let finished = sink else { return }
        sink = nil
        if payloadIsObject, !payloadMerged, let object { payloadEncoding = UserInfoEncoding(userInfo: object, bytes: finished.writer) }
    }
}
