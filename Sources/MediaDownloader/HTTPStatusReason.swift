/// Short, lower-case reasons for the HTTP statuses an `http NNN` error explains.
enum HTTPStatusReason {
    private static let reasons: [Int: String] = [
        300: "multiple choices", 301: "moved permanently", 302: "found", 303: "see other", 304: "not modified",
        305: "use proxy", 307: "temporary redirect", 308: "permanent redirect",
        400: "bad request", 401: "unauthorized", 402: "payment required", 403: "forbidden", 404: "not found",
        405: "method not allowed", 406: "not acceptable", 407: "proxy authentication required",
        408: "request timeout", 409: "conflict", 410: "gone", 411: "length required", 412: "precondition failed",
        413: "content too large", 414: "URI too long", 415: "unsupported media type", 416: "range not satisfiable",
        417: "expectation failed", 418: "I'm a teapot", 421: "misdirected request", 422: "unprocessable content",
        425: "too early", 426: "upgrade required", 428: "precondition required", 429: "too many requests",
        431: "request header fields too large", 451: "unavailable for legal reasons",
        500: "internal server error", 501: "not implemented", 502: "bad gateway", 503: "service unavailable",
        504: "gateway timeout", 505: "HTTP version not supported", 511: "network authentication required",
    ]

    /// The reason for `status`, or a generic one for its class.
    static func text(for status: Int) -> String {
        if let reason = reasons[status] { return reason }
        switch status {
        case 100..<200: return "informational response"
        case 300..<400: return "redirect without a usable Location"
        case 400..<500: return "client error"
        case 500..<600: return "server error"
        default: return "unexpected status"
        }
    }
}
