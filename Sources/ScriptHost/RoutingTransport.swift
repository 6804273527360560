import Foundation
import MediaDownloader

/// Answers a URL from the media table when it is listed, else from the network (or, offline,
/// fails it with `network` as an unlisted fixture URL does).
struct RoutingTransport: Transport {
    let media: FixtureTransport
    let network: (any Transport)?

    func startTransfer(of url: URL, to sink: TransferSink) -> any TransferHandle {
        if media.answer(for: url) == nil, let network {
            return network.startTransfer(of: url, to: sink)
        }
        return media.startTransfer(of: url, to: sink)
    }
}
