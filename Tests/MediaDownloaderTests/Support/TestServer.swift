import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import TestSupport

/// A request as the test server saw it.
struct TestRequest: Sendable {
    let method: String
    let path: String
    let headers: [String: String]
}

/// A small HTTP/1.1 server on 127.0.0.1 and an ephemeral port, one thread per connection,
/// `Connection: close` on every response. Each test starts its own and stops it.
final class TestServer: Sendable {
    let port: UInt16
    private let listener: LoopbackListener
    private let log: RequestLog

    /// A server that answers from `routes` by path, 404 for any other path.
    convenience init(_ routes: [String: TestResponse]) throws {
        try self.init { request in routes[request.path] ?? .status(404) }
    }

    init(handler: @escaping @Sendable (TestRequest) -> TestResponse) throws {
        let log = RequestLog()
        self.log = log
        listener = try LoopbackListener { fd, listener in
            Connection(fd: fd, listener: listener).serve(handler: handler, log: log)
        }
        port = listener.port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The paths requested so far, in order.
    var requestedPaths: [String] { log.paths.withLock { $0 } }

    /// Stops accepting and ends every open connection.
    func stop() { listener.stop() }
}

/// The paths a ``TestServer`` was asked for, shared with its connections' threads.
private final class RequestLog: Sendable {
    let paths = Mutex<[String]>([])
}

/// One connection of a ``TestServer``: reads the request, answers as its response says.
private struct Connection {
    let fd: Int32
    let listener: LoopbackListener

    private var isStopped: Bool { listener.isStopped }

    private func wait(for fd: Int32, events: Int16, milliseconds: Int32) -> Bool {
        LoopbackListener.wait(for: fd, events: events, milliseconds: milliseconds)
    }

    func serve(handler: @Sendable (TestRequest) -> TestResponse, log: RequestLog) {
        guard let request = readRequest(fd) else { return }
        log.paths.withLock { $0.append(request.path) }
        let response = handler(request)
        if response.delayMs > 0, !pause(milliseconds: response.delayMs) { return }
        guard send(fd, Array(head(of: response).utf8)) else { return }
        let total = response.body.count
        let toSend = min(response.sendLimit ?? total, total)
        var sent = 0
        let filler = (0..<response.chunkSize).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        while sent < toSend {
            let count = min(response.chunkSize, toSend - sent)
            let ok: Bool
            switch response.body {
            case .bytes(let bytes):
                ok = send(fd, bytes[sent..<(sent + count)])
            case .generated(let prefix, _):
                if sent < prefix.count {
                    let fromPrefix = min(count, prefix.count - sent)
                    var chunk = Array(prefix[sent..<(sent + fromPrefix)])
                    chunk.append(contentsOf: filler.prefix(count - fromPrefix))
                    ok = send(fd, chunk)
                } else {
                    ok = send(fd, filler[0..<count])
                }
            }
            guard ok else { return }
            sent += count
            if response.chunkDelayMs > 0, sent < toSend, !pause(milliseconds: response.chunkDelayMs) { return }
        }
        switch response.ending {
        case .close:
            shutdown(fd, Int32(SHUT_WR))
        case .stall:
            stall(fd)
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
    }

    private func head(of response: TestResponse) -> String {
        var lines = ["HTTP/1.1 \(response.status) \(reason(response.status))"]
        for (name, value) in response.headers { lines.append("\(name): \(value)") }
        switch response.length {
        case .actual: lines.append("Content-Length: \(response.body.count)")
        case .declared(let count): lines.append("Content-Length: \(count)")
        case .omitted: break
        }
        lines.append("Connection: close")
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    private func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 307: "Temporary Redirect"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }

    /// Reads up to the end of the request head; nil if the client goes or the server stops first.
    private func readRequest(_ fd: Int32) -> TestRequest? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        let started = ContinuousClock.now
        while received.count < 65536, ContinuousClock.now - started < .seconds(10) {
            if received.firstRange(of: end) != nil { break }
            if isStopped { return nil }
            guard wait(for: fd, events: Int16(POLLIN), milliseconds: 50) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        let head = received.firstRange(of: end).map { received[..<$0.lowerBound] } ?? received[...]
        guard let parsed = LoopbackListener.parseHead(head) else { return nil }
        return TestRequest(method: parsed.method, path: parsed.path, headers: parsed.headers)
    }

    /// Sends all of `bytes`; false when the client is gone or the server stopped.
    private func send(_ fd: Int32, _ bytes: some Collection<UInt8>) -> Bool {
        listener.send(bytes, on: fd)
    }

    /// Holds the connection open and silent until the client closes it or the server stops
    /// (60 s at most).
    private func stall(_ fd: Int32) {
        let started = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 512)
        while !isStopped, ContinuousClock.now - started < .seconds(60) {
            guard wait(for: fd, events: Int16(POLLIN), milliseconds: 50) else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
        }
    }

    /// Sleeps in small steps; false if the server stopped meanwhile.
    private func pause(milliseconds: Int) -> Bool {
        let end = ContinuousClock.now + .milliseconds(milliseconds)
        while ContinuousClock.now < end {
            if isStopped { return false }
            Thread.sleep(forTimeInterval: min(0.01, Double(milliseconds) / 1000))
        }
        return true
    }
}

