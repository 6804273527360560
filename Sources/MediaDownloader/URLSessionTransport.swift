// The network off Linux (Linux has `CurlTransport`, which loads libcurl on the first
// transfer where FoundationNetworking would link it at start): on Apple platforms URLSession
// is Foundation's own. `ServiceExtensionTests` type-checks this file on Linux, against
// FoundationNetworking's URLSession, so that it cannot rot.
#if !os(Linux)
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The network off Linux: `URLSession` data tasks, for downloads and posts alike, whose
/// delegate (on a serial queue of the transport's own) hands each chunk to the
/// ``TransferReceiver`` as it arrives, so a download's body goes to disk. Redirects are not
/// followed here: the response is handed on for the downloader to check against its policy.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let router: SessionRouter

    /// A transport over a session made with `configuration`.
    public init(configuration: URLSessionConfiguration = URLSessionTransport.defaultConfiguration()) {
        let router = SessionRouter()
        let queue = OperationQueue()
        queue.name = "MediaDownloader.URLSessionTransport"
        queue.maxConcurrentOperationCount = 1
        self.router = router
        self.session = URLSession(configuration: configuration, delegate: router, delegateQueue: queue)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// An ephemeral configuration without cache or cookies. Its own timeouts are an hour, as a
    /// last resort only: downloads end by their own timeout and deadline.
    public static func defaultConfiguration() -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 3600
        configuration.timeoutIntervalForResource = 3600
        return configuration
    }

    /// Starts a data task for `request` whose events go to `receiver`. The response comes as
    /// sent (`Accept-Encoding: identity`), so that its bytes are what size limits count.
    public func startTransfer(_ request: TransferRequest, to receiver: any TransferReceiver) -> any TransferHandle {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = Data(request.body) }
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        let task = session.dataTask(with: urlRequest)
        router.register(receiver, for: task)
        task.resume()
        return DataTaskHandle(task: task)
    }
}

/// Cancels one data task.
private struct DataTaskHandle: TransferHandle {
    let task: URLSessionDataTask

    func cancel() { task.cancel() }
}

/// The session's delegate: routes each task's events to its sink.
private final class SessionRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let sinks = Mutex<[Int: any TransferReceiver]>([:])

    func register(_ sink: any TransferReceiver, for task: URLSessionTask) {
        sinks.withLock { $0[task.taskIdentifier] = sink }
    }

    private func sink(for task: URLSessionTask) -> (any TransferReceiver)? {
        sinks.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask,
                    willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
                    completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let sink = sink(for: dataTask), let http = response as? HTTPURLResponse else {
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        completionHandler(sink.receive(head: ResponseHead(status: http.statusCode, headers: headers)) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let sink = sink(for: dataTask), !sink.receive(chunk: data) else { return }
        DataTaskHandle(task: dataTask).cancel()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let sink = sinks.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        sink?.finish(error: error.map(Self.downloadError))
    }

    private static func downloadError(_ error: any Error) -> DownloadError {
        guard let urlError = error as? URLError else {
            return DownloadError(.network, String(describing: error))
        }
        switch urlError.code {
        case .timedOut:
            return DownloadError(.timeout, "the connection timed out")
        case .cancelled:
            return DownloadError(.network, "the transfer was cancelled")
        case .networkConnectionLost:
            return DownloadError(.network, "the connection was lost before the whole body arrived")
        case .cannotConnectToHost:
            return DownloadError(.network, "cannot connect to the host")
        case .cannotFindHost, .dnsLookupFailed:
            return DownloadError(.network, "cannot find the host")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return DownloadError(.network, "the secure connection failed (\(urlError.code.rawValue))")
        default:
            return DownloadError(.network, "\(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
    }
}
#endif
