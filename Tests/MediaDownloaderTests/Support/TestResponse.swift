/// What the test server does for one request: the status, headers and body it sends, and how it
/// misbehaves (a delay, a lying or missing Content-Length, a body cut short, a stall, a reset).
struct TestResponse: Sendable {
    /// The body's bytes: given, or generated on the fly so that large bodies never sit in memory.
    enum Body: Sendable {
        case bytes([UInt8])
        /// `prefix`, then filler bytes up to `count` in all.
        case generated(prefix: [UInt8], count: Int)

        var count: Int {
            switch self {
            case .bytes(let bytes): bytes.count
            case .generated(_, let count): count
            }
        }
    }

    /// What the Content-Length header says.
    enum Length: Sendable {
        case actual
        case declared(Int)
        case omitted
    }

    /// What happens after the body bytes are sent.
    enum Ending: Sendable {
        /// Close the connection normally.
        case close
        /// Keep the connection open without sending anything, until the client goes.
        case stall
        /// Reset the connection (RST).
        case reset
    }

    var status = 200
    var headers: [(String, String)] = []
    var body = Body.bytes([])
    var length = Length.actual
    /// Send only this many body bytes, then end as `ending` says.
    var sendLimit: Int?
    var ending = Ending.close
    /// Wait this long before sending the head.
    var delayMs = 0
    /// Wait this long between body chunks.
    var chunkDelayMs = 0
    var chunkSize = 64 * 1024

    static func ok(_ bytes: [UInt8], contentType: String? = nil) -> TestResponse {
        TestResponse(headers: contentType.map { [("Content-Type", $0)] } ?? [], body: .bytes(bytes))
    }

    static func generated(_ count: Int, prefix: [UInt8], contentType: String? = nil) -> TestResponse {
        TestResponse(headers: contentType.map { [("Content-Type", $0)] } ?? [],
                     body: .generated(prefix: prefix, count: count))
    }

    static func status(_ status: Int) -> TestResponse {
        TestResponse(status: status, headers: [("Content-Type", "text/plain")],
                     body: .bytes(Array("status \(status)\n".utf8)))
    }

    static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: [("Location", location)], body: .bytes(Array("moved\n".utf8)))
    }
}
