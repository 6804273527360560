/// An answer for posts to one URL, in place of the network (a fixture's `http`): a status, a
/// response body, and a delay that counts against the request's deadline.
public struct PostAnswer: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The response body.
    public var body: String
    /// How long the answer takes, in milliseconds.
    public var delayMs: Int

    /// An answer.
    public init(status: Int = 200, body: String = "", delayMs: Int = 0) {
        self.status = status
        self.body = body
        self.delayMs = delayMs
    }
}

/// A post a script made: what `http.post` sent (a fixture's `expect.posts` matches these).
public struct PostRecord: Sendable, Hashable {
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
}
