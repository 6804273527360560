import Foundation

/// The seam between the downloader and the network: something that performs one HTTP GET
/// without following redirects and streams what it gets to a ``TransferSink``.
///
/// A transport reports, in this order, the response head (``TransferSink/receive(head:)``),
/// the body in chunks in order (``TransferSink/receive(chunk:)``), and the end
/// (``TransferSink/finish(error:)``, with nil for a complete body). It stops sending when a
/// call returns false or when the returned handle is cancelled. Everything else — redirects,
/// the download policy, size limits, typing, timeouts, the deadline, cancellation and removing
/// partial files — is the downloader's, the same for every transport.
public protocol Transport: Sendable {
    /// Starts a GET of `url` that reports to `sink`, and returns a handle that cancels it.
    /// A redirect response is reported as it is, not followed.
    func startTransfer(of url: URL, to sink: TransferSink) -> any TransferHandle
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
