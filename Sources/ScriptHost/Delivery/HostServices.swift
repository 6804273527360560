import Foundation
import LuaSandbox
import MediaDownloader
import Synchronization

/// What every sandbox of a host shares: the configuration, the executor, the hooks, and the
/// one seam to the network that downloads and posts both go through.
final class HostServices: Sendable {
    let configuration: HostConfiguration
    let executor: SandboxExecutor
    let hooks = Mutex<[String: Hook]>([:])
    /// How many names `hooks` holds (hooks are never removed): every request's sandbox reads it
    /// to see whether a hook is new, without taking the lock (a write, which would move it
    /// between the cores' caches on every request).
    let hookCount = Atomic<Int>(0)
    /// Answers every request of the host gets ahead of the network (`--media`), if any.
    let answers: RequestAnswers?
    /// The network in place of the platform's (a test's server), if given.
    private let givenNetwork: (any Transport)?
    private let networkBox = Mutex<(any Transport)?>(nil)

    init(configuration: HostConfiguration, executor: SandboxExecutor, answers: RequestAnswers? = nil, network: (any Transport)? = nil) {
        self.configuration = configuration
        self.executor = executor
        self.answers = answers
        self.givenNetwork = network
    }

    /// The network: the given one, else no network when offline, else the platform's
    /// (``PlatformNetwork``), made on first use (off Linux it is a URLSession, which keeps a
    /// thread; on Linux libcurl is loaded on the first transfer).
    var network: any Transport {
        if let givenNetwork { return givenNetwork }
        if configuration.offline { return OfflineTransport() }
        return networkBox.withLock { box in
            if let transport = box { return transport }
            let transport = PlatformNetwork.make()
            box = transport
            return transport
        }
    }

    /// What a request's downloads and posts go through: its own answers, then the host's,
    /// then the network.
    func transport(for request: RequestAnswers?) -> any Transport {
        let given = [request?.transport, answers?.transport].compactMap { $0 }
        return given.isEmpty ? network : RoutingTransport(transports: given + [network])
    }

    /// Whether `path` (resolved) is a file that the request's or the host's answers name.
    func answersName(_ path: String, for request: RequestAnswers?) -> Bool {
        request?.files.contains(path) == true || answers?.files.contains(path) == true
    }

    /// The downloader for a request: its answers first, then the host's, then the network;
    /// plain `http` for `allowHTTPHosts` (the host's when nil).
    func downloader(answers: RequestAnswers?, allowHTTPHosts: Set<String>? = nil) -> MediaDownloader {
        MediaDownloader(transport: transport(for: answers), policy: DownloadPolicy(allowingHTTPFor: allowHTTPHosts ?? configuration.allowHTTPHosts))
    }
}
