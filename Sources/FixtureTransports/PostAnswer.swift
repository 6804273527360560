/// An answer for posts to one URL, in place of the network (a fixture's `http`, `--http-map`):
/// a status, a response body, and a delay that counts against the request's deadline.
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
