import Foundation
import NotificationModel

extension DeliveryResult {
    /// The result as SPEC section 2 writes it: `outcome`, `reason` (fallback only),
    /// `suppressed` (only when true), `content`, `logs`, `stats`; then what the request
    /// registered with `categories.register`, in order and always present (empty when
    /// nothing): `registeredCategories`, their identifiers, and `categories`, the categories
    /// whole in the shape `categories.register` takes; and `posts`, always present (empty when
    /// it posted nothing), those made after delivery marked `"after": true`. `script`
    /// names the script that answered (null when none ran).
    public var jsonValue: JSONValue { .object(jsonObject) }

    private var jsonObject: [String: JSONValue] {
        var object: [String: JSONValue] = [
            "outcome": .string(outcome.rawValue),
            "content": content.toJSON(),
            "logs": .array(logs.map(\.jsonValue)),
            "stats": .object([
                "cpuMs": .number(Self.rounded(stats.cpuMs)),
                "wallMs": .number(Self.rounded(stats.wallMs)),
                "deliveredMs": .number(Self.rounded(stats.deliveredMs)),
                "memoryPeakBytes": .integer(Int64(stats.memoryPeakBytes)),
            ]),
        ]
        if let reason {
            object["reason"] = .object(["kind": .string(reason.kind.rawValue), "message": .string(reason.message)])
        }
        if suppressed { object["suppressed"] = .bool(true) }
        object["script"] = script?.jsonValue ?? .null
        object["registeredCategories"] = .array(registeredCategories.map { .string($0) })
        object["categories"] = .array(categories.map(\.jsonValue))
        object["posts"] = .array(posts.map(\.jsonValue))
        return object
    }

    /// The key order of the result object of SPEC §2: `outcome, reason, suppressed, content,
    /// logs, stats` (after `id` when `serve` adds one), then what a run adds
    /// (`registeredCategories, categories, posts`); the content's fields in SPEC §1 order, a
    /// reason as `kind, message`, a log entry as `level, message, source`.
    public static let keyOrder = JSONKeyOrder(
        first: [
            "id", "outcome", "reason", "suppressed", "content", "logs", "stats", "script",
            "registeredCategories", "categories", "posts",
        ],
        nested: [
            "reason": JSONKeyOrder(first: ["kind", "message"]),
            "content": NotificationContent.jsonKeyOrder,
            "logs": JSONKeyOrder(first: ["level", "message", "source"]),
            "stats": JSONKeyOrder(first: ["cpuMs", "wallMs", "deliveredMs", "memoryPeakBytes"]),
            "script": JSONKeyOrder(first: ["version", "sha256"]),
            "categories": NotificationCategory.jsonKeyOrder,
        ]
    )

    /// The result as one line of JSON, with `id` first when given (for `serve`).
    public func jsonLine(id: JSONValue? = nil) -> String {
        String(decoding: jsonLineBytes(id: id, newline: false), as: UTF8.self)
    }

    /// ``jsonLine(id:)`` as UTF-8 bytes, written once, ending in a newline when `newline`.
    public func jsonLineBytes(id: JSONValue? = nil, newline: Bool = true) -> [UInt8] {
        var writer = JSONWriter()
        do throws(JSONError) {
            try write(id: id, into: &writer)
        } catch {
            return Array(#"{"error":"result could not be written"}"#.utf8) + (newline ? [UInt8(ascii: "\n")] : [])
        }
        var bytes = writer.bytes
        if newline { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    /// Writes the result object member by member, in ``keyOrder``: what ``jsonValue`` written
    /// with it gives, with `id` first when given, without making the value.
    private func write(id: JSONValue?, into writer: inout JSONWriter) throws(JSONError) {
        let nested = Self.keyOrder.nested
        writer.beginObject()
        if let id {
            writer.key("id")
            try writer.write(id)
        }
        writer.key("outcome")
        writer.write(string: outcome.rawValue)
        if let reason {
            writer.key("reason")
            writer.beginObject()
            writer.key("kind")
            writer.write(string: reason.kind.rawValue)
            writer.key("message")
            writer.write(string: reason.message)
            writer.endObject()
        }
        if suppressed {
            writer.key("suppressed")
            try writer.write(.bool(true))
        }
        writer.key("content")
        try content.writeJSON(into: &writer)
        writer.key("logs")
        try writer.write(.array(logs.map(\.jsonValue)), order: nested["logs"] ?? .sorted)
        writer.key("stats")
        writer.beginObject()
        writer.key("cpuMs")
        try writer.write(.number(Self.rounded(stats.cpuMs)))
        writer.key("wallMs")
        try writer.write(.number(Self.rounded(stats.wallMs)))
        writer.key("deliveredMs")
        try writer.write(.number(Self.rounded(stats.deliveredMs)))
        writer.key("memoryPeakBytes")
        writer.write(integer: Int64(stats.memoryPeakBytes))
        writer.endObject()
        writer.key("script")
        if let script {
            writer.beginObject()
            writer.key("version")
            if let version = script.version { writer.write(integer: Int64(version)) } else { try writer.write(.null) }
            writer.key("sha256")
            writer.write(string: script.sha256)
            writer.endObject()
        } else {
            try writer.write(.null)
        }
        writer.key("registeredCategories")
        try writer.write(.array(registeredCategories.map { .string($0) }))
        writer.key("categories")
        try writer.write(.array(categories.map(\.jsonValue)), order: nested["categories"] ?? .sorted)
        writer.key("posts")
        try writer.write(.array(posts.map(\.jsonValue)))
        writer.endObject()
    }

    /// The result pretty-printed for people.
    public func prettyJSON() -> String {
        String(decoding: prettyJSONBytes(newline: false), as: UTF8.self)
    }

    /// ``prettyJSON()`` as UTF-8 bytes, ending in a newline when `newline`.
    public func prettyJSONBytes(newline: Bool = true) -> [UInt8] {
        var bytes = (try? jsonValue.jsonBytes(keyOrder: Self.keyOrder, prettyPrinted: true)) ?? Array("{}".utf8)
        if newline { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    private static func rounded(_ ms: Double) -> Double { (ms * 1000).rounded() / 1000 }
}

extension ScriptIdentity {
    /// `{"version": N or null, "sha256": "…"}`.
    public var jsonValue: JSONValue {
        .object(["version": version.map { .integer(Int64($0)) } ?? .null, "sha256": .string(sha256)])
    }
}

extension PostRecord {
    /// `{"method": "POST", "url": …, "contentType": …, "headers": {…}, "body": …, "after":
    /// true}` (`headers` when the script added some, `after` for a post made after delivery);
    /// a body that is JSON is given as its value, so that a fixture
    /// can match it as a subset.
    public var jsonValue: JSONValue {
        let parsed = (try? JSONValue(jsonData: Data(body.utf8))).flatMap { value -> JSONValue? in
            if case .object = value { return value }
            if case .array = value { return value }
            return nil
        }
        var object: [String: JSONValue] = [
            "method": .string(method), "url": .string(url), "contentType": .string(contentType), "body": parsed ?? .string(body),
        ]
        if !headers.isEmpty { object["headers"] = .object(headers.mapValues { .string($0) }) }
        if after { object["after"] = .bool(true) }
        return .object(object)
    }
}
