import Foundation
import MediaDownloader
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport

/// A request as ``PostTestServer`` received it, body and all.
struct ReceivedPost: Sendable {
    let method: String
    let path: String
    let headers: [String: String]
    let body: [UInt8]
}

/// An answer of ``PostTestServer``: a status, headers, a body, sent after a delay.
struct PostTestAnswer: Sendable {
    var status = 200
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    var delayMs = 0
}

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port for `http.post`'s tests: it
/// reads each request with its body, records it, and answers with `Connection: close`.
final class PostTestServer: Sendable {
    let port: UInt16
    private let listener: LoopbackListener
    private let log: PostLog

    init(answer: @escaping @Sendable (ReceivedPost) -> PostTestAnswer) throws {
        let log = PostLog()
        self.log = log
        listener = try LoopbackListener(backlog: 64) { fd, listener in
            PostConnection(fd: fd, listener: listener).serve(answer: answer, log: log)
        }
        port = listener.port
    }

    deinit { stop() }

    /// The requests received so far, in order.
    var received: [ReceivedPost] { log.received.withLock { $0 } }

    /// The network as the test gives it to a host: the real one, with every request sent to
    /// this server instead (same path and query).
    var transport: any Transport { RoutedTransport(route: route, network: Self.network) }

    /// One transport to the platform's network for the tests' servers, as a host keeps one.
    static let network = PlatformNetwork.make()

    /// Where a post to `url` goes instead: this server, same path and query.
    var route: @Sendable (URL) -> URL {
        let port = port
        return { url in
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.scheme = "http"
            components.host = "127.0.0.1"
            components.port = Int(port)
            return components.url!
        }
    }

    /// Stops accepting and ends every open connection.
    func stop() { listener.stop() }
}

/// The requests a ``PostTestServer`` received, shared with its connections' threads.
private final class PostLog: Sendable {
    let received = Mutex<[ReceivedPost]>([])
}

/// One connection of a ``PostTestServer``: reads the request and its body, answers.
private struct PostConnection {
    let fd: Int32
    let listener: LoopbackListener

    private var isStopped: Bool { listener.isStopped }

    private func ready(_ fd: Int32, milliseconds: Int32) -> Bool {
        LoopbackListener.wait(for: fd, milliseconds: milliseconds)
    }

    func serve(answer: @Sendable (ReceivedPost) -> PostTestAnswer, log: PostLog) {
        guard let request = read(fd) else { return }
        log.received.withLock { $0.append(request) }
        let reply = answer(request)
        let end = ContinuousClock.now + .milliseconds(reply.delayMs)
        while ContinuousClock.now < end {
            if isStopped { return }
            Thread.sleep(forTimeInterval: 0.01)
        }
        var head = ["HTTP/1.1 \(reply.status) Status"]
        for (name, value) in reply.headers { head.append("\(name): \(value)") }
        head.append("Content-Length: \(reply.body.count)")
        head.append("Connection: close")
        var bytes = Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        bytes.append(contentsOf: reply.body)
        guard listener.send(bytes, on: fd) else { return }
        shutdown(fd, Int32(SHUT_WR))
    }

    /// The request head, then as many body bytes as its Content-Length says (10 s at most).
    private func read(_ fd: Int32) -> ReceivedPost? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        let started = ContinuousClock.now
        var parsed: (method: String, path: String, headers: [String: String], bodyStart: Int, length: Int)?
        while ContinuousClock.now - started < .seconds(10), !isStopped {
            if parsed == nil, let end = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                guard let head = LoopbackListener.parseHead(received[..<end.lowerBound]) else { return nil }
                parsed = (head.method, head.path, head.headers, end.upperBound, Int(head.headers["content-length"] ?? "0") ?? 0)
            }
            if let p = parsed, received.count - p.bodyStart >= p.length {
                return ReceivedPost(method: p.method, path: p.path, headers: p.headers, body: Array(received[p.bodyStart..<(p.bodyStart + p.length)]))
            }
            guard ready(fd, milliseconds: 50) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        return nil
    }
}

/// A network that sends every request to another address (`route`): what a test builds to
/// reach its server on 127.0.0.1 while the host's policies see the script's own URL.
struct RoutedTransport: Transport {
    let route: @Sendable (URL) -> URL
    let network: any Transport

    func startTransfer(_ request: TransferRequest, to receiver: any TransferReceiver) -> any TransferHandle {
        var routed = request
        routed.url = route(request.url)
        return network.startTransfer(routed, to: receiver)
    }
}
