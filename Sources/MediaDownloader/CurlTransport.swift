#if os(Linux)
import Foundation

/// The network on Linux: libcurl, opened with `dlopen` on the first transfer rather than
/// linked, so that a process that never downloads or posts never loads it nor the libraries it
/// brings (TLS, Kerberos, LDAP and the rest, about thirty). Each transfer runs on a thread of
/// its own, for downloads and posts alike.
///
/// It keeps the ``Transport`` contract: the head, then the body in chunks in order, then the
/// end; a redirect is reported as it is, not followed; `Accept-Encoding: identity`, so that the
/// bytes are those that size limits count. The body is handed to the receiver as libcurl reads
/// it, on the transfer's thread, so a receiver that takes its time holds the reading back and
/// nothing gathers in memory. When libcurl cannot be loaded, every transfer fails with
/// `network` and one line that says why and what to install.
public struct CurlTransport: Transport {
    /// The library's file name as `dlopen` takes it: `libcurl.so.4` unless given (a test
    /// names a missing one).
    public let library: String

    /// A transfer that gives up on its own after this many seconds, as a last resort only:
    /// downloads and posts end by their own timeouts and the request's deadline, which cancel.
    public static let lastResortTimeoutSeconds = 3600

    /// A transport over the libcurl named `library`, opened on its first transfer.
    public init(library: String = "libcurl.so.4") {
        self.library = library
    }

    /// Starts `request` on a thread of its own, reporting to `receiver`.
    public func startTransfer(_ request: TransferRequest, to receiver: any TransferReceiver) -> any TransferHandle {
        let transfer = CurlTransfer(request: request, receiver: receiver, library: library)
        let thread = Thread { transfer.run(timeoutSeconds: Self.lastResortTimeoutSeconds) }
        thread.name = "CurlTransport"
        thread.start()
        return transfer
    }
}
#endif
