import Foundation
import NotificationModel
import ScriptHost

/// One line of `serve`'s input, read: a request to deliver, or why it is not one.
///
/// A request is a JSON object: `{"id": …, "app": "com.example.news", "payload": {…}}`, with
/// optional `"locales": ["de-DE", "en"]` (the device's preferred languages for this request),
/// `"expireMs": N` (the system's deadline, from the request's start) and `"identifier"` (the
/// request's `apns-id`, `request.identifier`; a new UUID without one).
/// `id` is any JSON value and is echoed in the answer (null when absent); `app` may be left out
/// when `serve` was given `--app`.
enum ServeLine {
    /// A request, with the id to answer under.
    case request(id: JSONValue, NotificationRequest)
    /// Not a valid request: the id to answer under (null when unreadable) and why.
    case invalid(id: JSONValue, message: String)

    /// Reads a line. `defaultApp` (`--app`) is used when the request names no app, and
    /// `defaultExpiry` (`--expire-ms`) when it gives no `expireMs`.
    static func parse(_ line: [UInt8], defaultApp: String?, defaultExpiry: Duration? = nil) -> ServeLine {
        let value: JSONValue
        let payloadSize: Int?
        let builder: RequestLineBuilder
        switch read(line) {
        case .success((let read, false, let built)):
            (value, payloadSize, builder) = (read, built.sentSize, built)
        case .success((let read, true, _)):
            return .invalid(id: read.objectValue?["id"] ?? .null, message: "the line nests arrays and objects deeper than \(JSONValue.maximumDepth) levels; give a flatter request")
        case .failure(let error):
            return .invalid(id: .null, message: "the line is not valid JSON: \(error.message(.line)); give one JSON object per line")
        }
        guard case .object(let object) = value else {
            return .invalid(id: .null, message: "a request must be a JSON object with id, app and payload, not \(article(value.kindName))")
        }
        // One pass over the members, each told by a switch (no key hashed); of several unknown
        // keys the first in sorted order is named, so that the message is always the same.
        var id = JSONValue.null
        var appValue: JSONValue?, payloadValue: JSONValue?, localesValue: JSONValue?
        var identifierValue: JSONValue?, expireValue: JSONValue?
        var unknown: String?
        for (key, member) in object {
            switch key {
            case "id": id = member
            case "app": appValue = member
            case "payload": payloadValue = member
            case "locales": localesValue = member
            case "expireMs": expireValue = member
            case "identifier": identifierValue = member
            default: if unknown.map({ key < $0 }) ?? true { unknown = key }
            }
        }
        if let unknown {
            return .invalid(id: id, message: "unknown key '\(unknown)'; a request has id, app, payload, locales, expireMs and identifier")
        }
        let app: String
        switch appValue {
        case .string(let name) where !name.isEmpty:
            app = name
        case nil where defaultApp != nil:
            app = defaultApp!
        case nil:
            return .invalid(id: id, message: "app is missing; give the app's bundle identifier (or start serve with --app)")
        default:
            return .invalid(id: id, message: "app must be a non-empty string: the app's bundle identifier")
        }
        guard let payloadValue else {
            return .invalid(id: id, message: "payload is missing; give the APNs payload as a JSON object")
        }
        let payload: Payload
        // measured on the line's text as it was read: a key written twice in the payload still counts
        do { payload = try Payload(value: payloadValue, sentSize: payloadSize ?? 0) } catch {
            return .invalid(id: id, message: error.message)
        }
        var locales: [String]?
        if let given = localesValue {
            let tags = given.arrayValue?.compactMap(\.stringValue)
            guard let tags, tags.count == given.arrayValue?.count else {
                return .invalid(id: id, message: #"locales must be a list of language tags such as ["de-DE", "en"]"#)
            }
            locales = tags.isEmpty ? nil : tags
        }
        var identifier: String?
        switch identifierValue {
        case nil: break
        case .string(let text) where !text.isEmpty: identifier = text
        default: return .invalid(id: id, message: "identifier must be a non-empty string: the request's apns-id")
        }
        var expiry = defaultExpiry
        if let given = expireValue {
            guard let ms = given.integerValue, let parsed = NotificationRequest.expiry(milliseconds: ms) else {
                return .invalid(id: id, message: "expireMs must be \(NotificationRequest.expiryRange)")
            }
            expiry = parsed
        }
        var request = NotificationRequest(payload: payload, app: app, identifier: identifier, locales: locales, expiry: expiry)
        builder.givePayloadEncoding(to: &request)
        return .request(id: id, request)
    }

    /// The line's JSON, read once, on past parts nested too deeply (whether there were some
    /// comes with it), so that such a line can still be answered under its `id` (an `id` that
    /// had such a part is left out); the size as sent of its `payload`, measured in the same
    /// read; and the payload in the bridge's format, written in the same read.
    private static func read(_ line: [UInt8]) -> Result<(JSONValue, Bool, RequestLineBuilder), JSONReadError> {
        line.withUnsafeBufferPointer { bytes in
            do throws(JSONReadError) {
                let read = try RequestLineBuilder.read(bytes, maximumDepth: JSONValue.maximumDepth)
                return .success((read.value, read.skippedTooDeep, read.builder))
            } catch {
                return .failure(error)
            }
        }
    }

    private static func article(_ kind: String) -> String {
        switch kind {
        case "null": return "null"
        case "array", "integer": return "an \(kind)"
        default: return "a \(kind)"
        }
    }

    /// The answer to a line that is not a valid request, `{"id": …, "error": "…"}`, and its
    /// newline.
    static func errorLine(id: JSONValue, message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key(literal: "id")
        writer.write(id)
        writer.key(literal: "error")
        writer.write(string: message)
        writer.endObject()
        let line = writer.failure == nil ? writer.bytes : Array(#"{"id":null,"error":"the answer could not be written"}"#.utf8)
        return line + [UInt8(ascii: "\n")]
    }
}
