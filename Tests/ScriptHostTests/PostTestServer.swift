import Foundation
import Glibc
import Synchronization

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
    private struct State {
        var stopped = false
        var connections: Set<Int32> = []
        var received: [ReceivedPost] = []
    }

    let port: UInt16
    private let listener: Int32
    private let answer: @Sendable (ReceivedPost) -> PostTestAnswer
    private let state = Mutex(State())

    init(answer: @escaping @Sendable (ReceivedPost) -> PostTestAnswer) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PostServerError(message: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw PostServerError(message: "bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        self.answer = answer
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// The requests received so far, in order.
    var received: [ReceivedPost] { state.withLock { $0.received } }

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
    func stop() {
        state.withLock { state in
            state.stopped = true
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        defer { close(listener) }
        while !isStopped {
            guard ready(listener, milliseconds: 50) else { continue }
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { continue }
            let accepted = state.withLock { state -> Bool in
                if state.stopped { return false }
                state.connections.insert(fd)
                return true
            }
            guard accepted else {
                close(fd)
                continue
            }
            Thread { [self] in
                serve(fd)
                state.withLock { state in
                    state.connections.remove(fd)
                    close(fd)
                }
            }.start()
        }
    }

    private func ready(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    private func serve(_ fd: Int32) {
        guard let request = read(fd) else { return }
        state.withLock { $0.received.append(request) }
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
        var offset = 0
        while offset < bytes.count, !isStopped {
            let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            offset += count
        }
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
                let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                let parts = lines.first?.split(separator: " ") ?? []
                guard parts.count >= 2 else { return nil }
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                parsed = (String(parts[0]), String(parts[1]), headers, end.upperBound, Int(headers["content-length"] ?? "0") ?? 0)
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

struct PostServerError: Error {
    let message: String
}
