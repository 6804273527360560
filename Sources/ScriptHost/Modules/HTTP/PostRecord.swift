import Foundation
import NotificationModel

/// A post a script made: what `http.post` sent (a fixture's `expect.posts` matches these).
public struct PostRecord: Sendable, Hashable, JSONWritable {
    /// The URL posted to.
    public var url: String
    /// The body as sent.
    public var body: String
    /// Its `Content-Type`.
    public var contentType: String
    /// `POST` or `PUT`.
    public var method = "POST"
    /// The headers the script added.
    public var headers: [String: String] = [:]
    /// Whether `afterDelivery` made it (after the content was handed over).
    public var after = false

    /// What the record holds, as a request's record budget counts it.
    var recordedBytes: Int {
        64 + url.utf8.count + body.utf8.count + contentType.utf8.count + method.utf8.count
            + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 8 }
    }

    /// A record of a post of `body` to `url`.
    public init(url: String, body: String, contentType: String, method: String = "POST", headers: [String: String] = [:], after: Bool = false) {
        self.url = url
        self.body = body
        self.contentType = contentType
        self.method = method
        self.headers = headers
        self.after = after
    }

    /// Writes `{"method": "POST", "url": …, "contentType": …, "headers": {…}, "body": …,
    /// "after": true}` (`headers` when the script added some, `after` for a post made after
    /// delivery); a body that is a JSON object or array is written as that value, so that a
    /// fixture can match it as a subset.
    public func write(into sink: inout some JSONSink) {
        sink.beginObject()
        sink.key(literal: "method")
        sink.write(string: method)
        sink.key(literal: "url")
        sink.write(string: url)
        sink.key(literal: "contentType")
        sink.write(string: contentType)
        if !headers.isEmpty {
            sink.key(literal: "headers")
            sink.write(.object(headers.mapValues(JSONValue.string)))
        }
        sink.key(literal: "body")
        switch try? JSONValue(jsonData: Data(body.utf8)) {
        case let parsed? where parsed.arrayValue != nil || parsed.objectValue != nil: sink.write(parsed)
        default: sink.write(string: body)
        }
        if after {
            sink.key(literal: "after")
            sink.write(bool: true)
        }
        sink.endObject()
    }
}

/// The posts `http.post` made, in order: the result's `posts`.
package struct PostRecords: ResultPart {
    /// The records, those of `afterDelivery` last.
    package var records: [PostRecord] = []

    /// No posts.
    package init() {}

    /// Writes `"posts": [...]`.
    package func writeMembers(into result: inout some JSONSink) {
        result.key(literal: "posts")
        result.beginArray()
        for record in records { record.write(into: &result) }
        result.endArray()
    }
}

extension DeliveryResult {
    /// The posts `http.post` made, in order (those of `afterDelivery` last, marked
    /// ``PostRecord/after``).
    public var posts: [PostRecord] {
        get { parts[PostRecords.self].records }
        set { parts[PostRecords.self].records = newValue }
    }
}
