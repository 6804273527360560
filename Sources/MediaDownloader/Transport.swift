import Foundation

/// The seam between the host and the network, for downloads and posts alike: something that
/// sends one HTTP request without following redirects and streams the response to a
/// ``TransferReceiver``.
///
/// A transport reports, in this order, the response head (``TransferReceiver/receive(head:)``),
/// the body in chunks in order (``TransferReceiver/receive(chunk:)``), and the end
/// (``TransferReceiver/finish(error:)``, with nil for a complete body). It stops sending when a
/// call returns false or when the returned handle is cancelled. Everything else — redirects,
/// the policies, size limits, typing, timeouts, the deadline, cancellation and removing
/// partial files — is the receiver's and its caller's, the same for every transport.
///
/// The network is ``PlatformNetwork``'s (``CurlTransport`` on Linux, ``URLSessionTransport``
/// elsewhere); ``OfflineTransport`` fails every request; a table
/// of answers (fixtures) answers the requests it covers (``covers(_:)``) and leaves the rest
/// to the transport after it.
public protocol Transport: Sendable {
    /// Whether this transport answers `request`; the network answers every request, a table of
    /// answers only those it lists. True unless a transport says otherwise.
    func covers(_ request: TransferRequest) -> Bool

    /// Sends `request`, reporting to `receiver`, and returns a handle that cancels it. A
    /// redirect response is reported as it is, not followed.
    func startTransfer(_ request: TransferRequest, to receiver: any TransferReceiver) -> any TransferHandle
}

extension Transport {
    /// Every request.
    public func covers(_ request: TransferRequest) -> Bool { true }
}

/// One HTTP request a transport sends: a download's `GET`, or a post's `POST` or `PUT` with
/// its headers and body. The body is bounded by whoever makes the request (`http.post`: 64 KB);
/// the response by its receiver, which stops the transfer past its limit.
public struct TransferRequest: Sendable, Hashable {
    /// Where the request goes.
    public var url: URL
    /// `GET`, `POST` or `PUT`.
    public var method: String
    /// Headers to send (the transport may add its own, e.g. `Accept-Encoding: identity`).
    public var headers: [String: String]
    /// The body; empty for a `GET`.
    public var body: [UInt8]

    /// A request; a `GET` of `url` by default.
    public init(url: URL, method: String = "GET", headers: [String: String] = [:], body: [UInt8] = []) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
    }
}

/// Where a ``Transport`` delivers one response: a download's ``TransferSink`` (to a file),
/// or a post's bounded buffer. All methods may be called from any thread; calls after the end
/// are ignored.
public protocol TransferReceiver: Sendable {
    /// Takes the response head; false when the transfer should stop.
    func receive(head: ResponseHead) -> Bool
    /// Takes the next chunk of the body; false when the transfer should stop.
    func receive(chunk: Data) -> Bool
    /// Ends the transfer: nil when the whole body arrived, else why it failed.
    func finish(error: DownloadError?)
}

/// A transfer in flight that can be cancelled.
public protocol TransferHandle: Sendable {
    /// Stops the transfer as soon as possible; after it, nothing the transfer reports counts.
    /// Cancelling a finished transfer does nothing.
    func cancel()
}

/// The status line and headers of an HTTP response.
public struct ResponseHead: Sendable, Hashable {
    /// The HTTP status code.
    public let status: Int
    /// The headers, names in lower case (a repeated header's values joined with `, `).
    public let headers: [String: String]

    /// A response head with `status` and `headers` (names in any case).
    public init(status: Int, headers: [String: String] = [:]) {
        self.status = status
        var lowered: [String: String] = [:]
        for (name, value) in headers {
            let key = name.lowercased()
            lowered[key] = lowered[key].map { "\($0), \(value)" } ?? value
        }
        self.headers = lowered
    }

    /// The value of the header `name` (any case), or nil.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The `Content-Type` header, or nil.
    public var contentType: String? { header("content-type") }

    /// The `Location` header, or nil.
    public var location: String? { header("location") }

    /// The body's length from `Content-Length`, or nil when the header is missing or invalid, or
    /// when a `Content-Encoding` other than `identity` makes it the length of encoded bytes.
    public var contentLength: Int? {
        if let encoding = header("content-encoding")?.trimmingCharacters(in: .whitespaces).lowercased(),
           !encoding.isEmpty, encoding != "identity" {
            return nil
        }
        guard let text = header("content-length")?.trimmingCharacters(in: .whitespaces),
              !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text) ?? Int.max
    }
}
