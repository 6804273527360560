import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A TCP listener on 127.0.0.1 and an ephemeral port for the tests' HTTP servers: it accepts on
/// a thread of its own and hands each connection (and itself, to ask ``isStopped``) to `serve`
/// on a new thread, then closes it.
/// `stop()` ends accepting (the listener closes within 50 ms) and shuts every open connection
/// down. Descriptors are only shut down or closed under the lock, so a descriptor number the
/// system has handed to another socket is never touched.
public final class LoopbackListener: Sendable {
    private struct State {
        var stopped = false
        var connections: Set<Int32> = []
    }

    /// The port the listener was given.
    public let port: UInt16
    private let listener: Int32
    private let state = Mutex(State())

    /// Listens with room for `backlog` pending connections, and serves each with `serve`.
    public init(backlog: Int32 = 128, serve: @escaping @Sendable (Int32, LoopbackListener) -> Void) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ListenerError("socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, backlog) == 0 else {
            close(fd)
            throw ListenerError("bind/listen: errno \(errno)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        listener = fd
        Thread { [self] in acceptLoop(serve) }.start()
    }

    deinit { stop() }

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops accepting and shuts every open connection down.
    public func stop() {
        state.withLock { state in
            state.stopped = true
            for fd in state.connections { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// True when `fd` is ready for `events` (POLLIN by default) within `milliseconds`.
    public static func wait(for fd: Int32, events: Int16 = Int16(POLLIN), milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: events, revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    /// Sends all of `bytes` on `fd`; false when the client is gone or the listener stopped.
    public func send(_ bytes: some Collection<UInt8>, on fd: Int32) -> Bool {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            if isStopped { return false }
            let count = array.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, array.count - offset, Int32(MSG_NOSIGNAL))
            }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    /// The request line and headers of an HTTP request head (the bytes before its blank line):
    /// the method, the path, and the headers by lower-case name; nil when the request line has
    /// no path.
    public static func parseHead(_ head: some Collection<UInt8>) -> (method: String, path: String, headers: [String: String])? {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (String(parts[0]), String(parts[1]), headers)
    }

    private func acceptLoop(_ serve: @escaping @Sendable (Int32, LoopbackListener) -> Void) {
        defer { close(listener) }
        while !isStopped {
            guard Self.wait(for: listener, milliseconds: 50) else { continue }
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
                serve(fd, self)
                state.withLock { state in
                    state.connections.remove(fd)
                    close(fd)
                }
            }.start()
        }
    }
}

/// Why a ``LoopbackListener`` could not start.
public struct ListenerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
