/// How `http.post` sends: the method, the body's type, extra headers and its own time limit
/// (`http.post(url, body, {method =, contentType =, headers =, timeout =})`).
struct PostOptions: Sendable {
    /// The methods a script may use: receipts are `POST`s, or `PUT`s for some providers.
    static let methods: Set<String> = ["POST", "PUT"]
    /// Headers the host sets itself, which a script cannot give (lower case).
    static let reservedHeaders: Set<String> = [
        "host", "content-length", "content-type", "transfer-encoding", "connection", "expect", "upgrade",
        "te", "trailer", "keep-alive", "proxy-authorization", "proxy-connection", "cookie",
    ]
    /// The most headers a script may add, and the most bytes their names and values may hold.
    static let maximumHeaders = 16
    static let maximumHeaderBytes = 8 * 1024

    var method = "POST"
    var contentType = "application/json"
    var headers: [String: String] = [:]
    var timeout: Duration?

    /// Why a header cannot be sent, or nil when it can.
    static func problem(name: String, value: String) -> String? {
        let token = name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
        guard !name.isEmpty, token else { return "header name '\(name.prefix(40))' is not a token; use letters, digits and '-'" }
        guard !reservedHeaders.contains(name.lowercased()) else {
            return name.lowercased() == "content-type"
                ? "the Content-Type header is set by the contentType option" : "the \(name) header is set by the host"
        }
        guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
            return "the value of header \(name) must be one line"
        }
        return nil
    }
}
