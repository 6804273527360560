import NotificationModel

extension DeliveryResult: JSONWritable {
    /// Writes the result as SPEC section 2 has it: `outcome`, `reason` (fallback only),
    /// `suppressed` (only when true), `content`, `logs`, `stats`, `script` (null when none ran),
    /// then each module's part in its place (``ResultParts``): `registeredCategories` and
    /// `categories` (the categories whole, in the shape `categories.register` takes), then
    /// `posts` (those made after delivery marked `"after": true`), always present.
    public func write(into sink: inout some JSONSink) {
        write(id: nil, into: &sink)
    }

    /// ``write(into:)`` with `id` first when given (a `serve` answer).
    func write(id: JSONValue?, into sink: inout some JSONSink) {
        sink.beginObject()
        if let id {
            sink.key(literal: "id")
            sink.write(id)
        }
        sink.key(literal: "outcome")
        sink.write(string: outcome.rawValue)
        if let reason {
            sink.key(literal: "reason")
            sink.beginObject()
            sink.key(literal: "kind")
            sink.write(string: reason.kind.rawValue)
            sink.key(literal: "message")
            sink.write(string: reason.message)
            sink.endObject()
        }
        if suppressed {
            sink.key(literal: "suppressed")
            sink.write(bool: true)
        }
        sink.key(literal: "content")
        content.write(into: &sink)
        sink.key(literal: "logs")
        sink.write(array: logs)
        sink.key(literal: "stats")
        sink.beginObject()
        sink.key(literal: "cpuMs")
        sink.write(number: Self.rounded(stats.cpuMs))
        sink.key(literal: "wallMs")
        sink.write(number: Self.rounded(stats.wallMs))
        sink.key(literal: "deliveredMs")
        sink.write(number: Self.rounded(stats.deliveredMs))
        sink.key(literal: "memoryPeakBytes")
        sink.write(integer: Int64(stats.memoryPeakBytes))
        sink.endObject()
        sink.key(literal: "script")
        if let script { script.write(into: &sink) } else { sink.writeNull() }
        parts.writeMembers(into: &sink)
        sink.endObject()
    }

    /// The result as one line of JSON, with `id` first when given (for `serve`).
    public func jsonLine(id: JSONValue? = nil) -> String {
        String(decoding: jsonLineBytes(id: id, newline: false), as: UTF8.self)
    }

    /// ``jsonLine(id:)`` as UTF-8 bytes, ending in a newline when `newline`; a result that
    /// holds a number JSON cannot (a non-finite one) is `{"error":"result could not be written"}`.
    public func jsonLineBytes(id: JSONValue? = nil, newline: Bool = true) -> [UInt8] {
        var writer = JSONWriter()
        write(id: id, into: &writer)
        var bytes = writer.failure == nil ? writer.bytes : Array(#"{"error":"result could not be written"}"#.utf8)
        if newline { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    /// The result indented for people (what `run` prints), ending in a newline when `newline`.
    public func prettyJSONBytes(newline: Bool = true) -> [UInt8] {
        var bytes = (try? jsonBytes(prettyPrinted: true)) ?? Array("{}".utf8)
        if newline { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    private static func rounded(_ ms: Double) -> Double { (ms * 1000).rounded() / 1000 }
}

extension ScriptIdentity: JSONWritable {
    /// Writes `{"version": N or null, "sha256": "…"}`.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        sink.key(literal: "version")
        if let version { sink.write(integer: Int64(version)) } else { sink.writeNull() }
        sink.key(literal: "sha256")
        sink.write(string: sha256)
        sink.endObject()
    }
}
