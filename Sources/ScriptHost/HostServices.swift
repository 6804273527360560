import Foundation
import LuaSandbox
import MediaDownloader
import Synchronization

/// What every sandbox of a host shares: the configuration, the executor, the hooks.
final class HostServices: Sendable {
    let configuration: HostConfiguration
    let executor: SandboxExecutor
    let hooks = Mutex<[String: Hook]>([:])
    private let networkBox = Mutex<URLSessionTransport?>(nil)

    init(configuration: HostConfiguration, executor: SandboxExecutor) {
        self.configuration = configuration
        self.executor = executor
    }

    /// The network transport, made on first use (it keeps a thread).
    var network: URLSessionTransport {
        networkBox.withLock { box in
            if let transport = box { return transport }
            let transport = URLSessionTransport()
            box = transport
            return transport
        }
    }

    /// The downloader for a request: its media answers first, then the network unless offline;
    /// plain `http` for `allowHTTPHosts` (the host's when nil).
    func downloader(media: [String: MediaAnswer], allowHTTPHosts: Set<String>? = nil) -> MediaDownloader {
        let transport = RoutingTransport(
            media: FixtureTransport(media: media), network: configuration.offline ? nil : network)
        return MediaDownloader(transport: transport, policy: DownloadPolicy(allowingHTTPFor: allowHTTPHosts ?? configuration.allowHTTPHosts))
    }
}
