import Foundation
import MediaDownloader

/// Answers for a request's downloads and posts given in place of the network — a fixture's
/// `media` and `http`, `--media`, `--media-map`, `--http-map` — handed to the host beside the
/// request (or to the host for all its requests), never inside the request itself: a transport
/// that answers what it covers, ahead of the host's network, and the files its answers name,
/// which `content:attach{path = …}` may read as it reads this request's downloads.
package struct RequestAnswers: Sendable {
    /// What answers the requests it covers (``Transport/covers(_:)``).
    package var transport: any Transport
    /// The files the answers name, as resolved paths.
    package var files: Set<String>

    /// Answers from `transport`, whose answers name `files`.
    package init(transport: any Transport, files: [URL] = []) {
        self.transport = transport
        self.files = Set(files.map(Self.resolvedPath))
    }

    /// The path `content:attach` compares: standardized, links resolved.
    static func resolvedPath(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}

/// Sends each request to the first of its transports that covers it (the last, which is the
/// host's network or ``OfflineTransport``, covers every request).
struct RoutingTransport: Transport {
    let transports: [any Transport]

    func covers(_ request: TransferRequest) -> Bool {
        transports.contains { $0.covers(request) }
    }

    func startTransfer(_ request: TransferRequest, to receiver: any TransferReceiver) -> any TransferHandle {
        let transport = transports.first { $0.covers(request) } ?? OfflineTransport()
        return transport.startTransfer(request, to: receiver)
    }
}
