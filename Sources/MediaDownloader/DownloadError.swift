/// Why a download failed. Its ``message`` starts with the kind's prefix — `timeout`,
/// `too large`, `http NNN`, `unsupported type`, `not allowed`, `network` or `deadline` — then
/// `: ` and a short explanation, e.g. `http 404: not found`.
public struct DownloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable {
            case timeout, tooLarge = "too large", http, unsupportedType = "unsupported type"
            case notAllowed = "not allowed", network, deadline
        }
        private let code: Code

        /// The download's own timeout, or the request's deadline, came while it ran.
        public static let timeout = Kind(code: .timeout)
        /// The body is larger than the download's `maxBytes`.
        public static let tooLarge = Kind(code: .tooLarge)
        /// The server answered with a status other than 2xx (``DownloadError/status`` tells which).
        public static let http = Kind(code: .http)
        /// The bytes are of no supported type, or of a kind the download did not ask for.
        public static let unsupportedType = Kind(code: .unsupportedType)
        /// The download policy refuses the URL or a redirect.
        public static let notAllowed = Kind(code: .notAllowed)
        /// The connection failed, was reset, or ended before the body did.
        public static let network = Kind(code: .network)
        /// The request's deadline had come before the download could start, or the download was
        /// cancelled because it came.
        public static let deadline = Kind(code: .deadline)

        /// The kind's prefix as messages spell it (`http` for HTTP errors, without the status).
        public var description: String { code.rawValue }
    }

    /// The kind of failure.
    public let kind: Kind
    /// The HTTP status, for kind ``Kind/http``; nil otherwise.
    public let status: Int?
    /// The explanation that follows the prefix.
    public let detail: String

    /// Makes an error of `kind` (for ``Kind/http`` use ``http(_:_:)``).
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.status = nil
        self.detail = detail
    }

    /// Makes an `http NNN` error for a response with `status`.
    public static func http(_ status: Int, _ detail: String) -> DownloadError {
        DownloadError(kind: .http, status: status, detail: detail)
    }

    private init(kind: Kind, status: Int?, detail: String) {
        self.kind = kind
        self.status = status
        self.detail = detail
    }

    /// The prefix: the kind's, or `http NNN` for HTTP errors.
    public var prefix: String {
        if kind == .http, let status { return "http \(status)" }
        return kind.description
    }

    /// The whole message, `prefix: detail`, as scripts see it.
    public var message: String { detail.isEmpty ? prefix : "\(prefix): \(detail)" }

    /// The whole message.
    public var description: String { message }
}
