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
    private let postRouteBox = Mutex<(@Sendable (URL) -> URL)?>(nil)

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

    /// Where `http.post` sends a URL that passed its policy: nil (the URL itself) except in the
    /// host's own tests, which route posts to a server on 127.0.0.1. Internal: neither scripts,
    /// the configuration nor the command line can set it.
    var postRoute: (@Sendable (URL) -> URL)? {
        get { postRouteBox.withLock { $0 } }
        set { postRouteBox.withLock { $0 = newValue } }
    }

    /// The downloader for a request: its media answers first, then the network unless offline;
    /// plain `http` for `allowHTTPHosts` (the host's when nil).
    func downloader(media: [String: MediaAnswer], allowHTTPHosts: Set<String>? = nil) -> MediaDownloader {
        let transport = RoutingTransport(
            media: FixtureTransport(media: media), network: configuration.offline ? nil : network)
        return MediaDownloader(transport: transport, policy: DownloadPolicy(allowingHTTPFor: allowHTTPHosts ?? configuration.allowHTTPHosts))
    }
}
