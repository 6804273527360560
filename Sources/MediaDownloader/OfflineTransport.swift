import Foundation

/// No network: every request fails with `network` at once, as `--offline` (a host's
/// ``PlatformNetwork`` left out) has it. A table of answers put before it answers the
/// requests it covers.
public struct OfflineTransport: Transport {
    /// No network.
    public init() {}

    /// Why `request` gets no answer: a download's `no media answer for 'URL' and no network to
    /// ask`, a post's `no answer for URL (offline)`.
    public static func failure(for request: TransferRequest) -> DownloadError {
        if request.method == "GET" {
            return DownloadError(.network, "no media answer for '\(request.url.absoluteString)' and no network to ask")
        }
        return DownloadError(.network, "no answer for \(request.url.absoluteString) (offline)")
    }

    /// Fails `request` at once.
    public func startTransfer(_ request: TransferRequest, to receiver: any TransferReceiver) -> any TransferHandle {
        receiver.finish(error: Self.failure(for: request))
        return Finished()
    }

    /// The handle of a transfer that ended before it was returned.
    private struct Finished: TransferHandle {
        func cancel() {}
    }
}
