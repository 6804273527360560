#if os(Linux)
import Foundation
import Glibc
import MediaDownloader
import Testing
import TestSupport

/// The Linux network, libcurl opened on the first transfer, against servers on 127.0.0.1: what
/// it reports, in which order, and how it fails.
@Suite("CurlTransport")
struct CurlTransportTests {
    let transport = CurlTransport()

    func request(_ server: TestServer, _ path: String) -> TransferRequest {
        TransferRequest(url: URL(string: server.url(path))!)
    }

    @Test("a redirect is reported as it is and not followed")
    func redirectReported() throws {
        let server = try TestServer(["/from": .redirect(to: "/to"), "/to": .ok(Array("reached".utf8))])
        defer { server.stop() }
        let receiver = RecordingReceiver()
        receiver.start(request(server, "/from"), on: transport)

        #expect(receiver.waitForFinish() == "nil")
        #expect(receiver.head?.status == 302)
        #expect(receiver.head?.location == "/to")
        #expect(receiver.body == Array("moved\n".utf8))
        #expect(server.requestedPaths == ["/from"])
    }

    @Test("the head comes first, the body in order, then the end; repeated headers are joined")
    func headBodyFinish() throws {
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var response = TestResponse.ok(bytes, contentType: "image/jpeg")
        response.headers += [("X-Twice", "one"), ("X-Twice", "two")]
        response.chunkSize = 10_000
        let server = try TestServer(["/a": response])
        defer { server.stop() }
        let receiver = RecordingReceiver()
        receiver.start(request(server, "/a"), on: transport)

        #expect(receiver.waitForFinish() == "nil")
        let events = receiver.events
        #expect(events.first.map { if case .head = $0 { true } else { false } } == true)
        #expect(events.last == .finish(nil))
        #expect(receiver.body == bytes)
        #expect(receiver.head?.contentType == "image/jpeg")
        #expect(receiver.head?.contentLength == bytes.count)
        #expect(receiver.head?.header("x-twice") == "one, two")
    }

    @Test("an empty body: the head, then the end")
    func emptyBody() throws {
        let server = try TestServer(["/empty": TestResponse(status: 204)])
        defer { server.stop() }
        let receiver = RecordingReceiver()
        receiver.start(request(server, "/empty"), on: transport)

        #expect(receiver.waitForFinish() == "nil")
        #expect(receiver.events == [.head(ResponseHead(status: 204, headers: ["Content-Length": "0", "Connection": "close"])), .finish(nil)])
    }

    @Test("an interim 100 response is not reported and its headers do not mix with the final one's")
    func interimResponseSkipped() throws {
        let listener = try LoopbackListener { fd, listener in
            guard Self.readHead(fd) else { return }
            let answer = "HTTP/1.1 100 Continue\r\nX-Interim: yes\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Final: yes\r\nConnection: close\r\n\r\nok"
            _ = listener.send(Array(answer.utf8), on: fd)
        }
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(TransferRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/")!), on: transport)

        #expect(receiver.waitForFinish() == "nil")
        #expect(receiver.head == ResponseHead(status: 200, headers: ["Content-Length": "2", "X-Final": "yes", "Connection": "close"]))
        #expect(receiver.body == Array("ok".utf8))
    }

    @Test("a cancel mid-body stops the transfer and nothing is reported after it")
    func cancelMidBody() throws {
        var response = TestResponse.generated(200_000, prefix: [], contentType: "image/jpeg")
        response.chunkSize = 1_000
        response.chunkDelayMs = 20
        let server = try TestServer(["/slow": response])
        defer { server.stop() }
        let receiver = RecordingReceiver(cancelAfterChunks: 2)
        receiver.start(request(server, "/slow"), on: transport)

        // The body takes 4 s to send; the transfer ends at once, and says nothing more.
        #expect(receiver.waitForFinish(seconds: 1.5) == nil)
        let events = receiver.events
        #expect(events.count == 3, "\(events.count) reports")
        #expect(receiver.body.count == 2_000)
    }

    @Test("a cancel while the server sends nothing ends the connection at once")
    func cancelWhileIdle() throws {
        let closed = DispatchSemaphore(value: 0)
        let listener = try LoopbackListener { fd, listener in
            guard Self.readHead(fd) else { return }
            guard listener.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabc".utf8), on: fd) else { return }
            // Nothing more: wait for the client to go.
            var byte: UInt8 = 0
            while !listener.isStopped {
                guard LoopbackListener.wait(for: fd, milliseconds: 50) else { continue }
                if recv(fd, &byte, 1, 0) <= 0 { break }
            }
            closed.signal()
        }
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(TransferRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/")!), on: transport)
        let start = ContinuousClock.now
        while receiver.body.isEmpty, ContinuousClock.now - start < .seconds(5) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(receiver.body == Array("abc".utf8))

        // Long enough for curl's own short timers to have run out: it now waits up to a second.
        Thread.sleep(forTimeInterval: 0.5)
        receiver.cancel()
        // Not at that wait's end: the cancel wakes it.
        #expect(closed.wait(timeout: .now() + 0.3) == .success)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(receiver.events.count == 2)
    }

    @Test("a false from the receiver stops the transfer: no body after a refused head")
    func refusedHeadStops() throws {
        let server = try TestServer(["/a": .generated(2_000_000, prefix: [])])
        defer { server.stop() }
        let receiver = RecordingReceiver(refuseHead: true)
        receiver.start(request(server, "/a"), on: transport)

        #expect(receiver.waitForFinish() == "network: the transfer was cancelled")
        #expect(receiver.body.isEmpty)
    }

    @Test("a refused connection is `cannot connect to the host`")
    func connectionRefused() throws {
        // A port bound but not listening: connecting to it is refused, and no other process
        // can take it while the socket is held.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        let receiver = RecordingReceiver()
        receiver.start(TransferRequest(url: URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/a")!), on: transport)

        #expect(receiver.waitForFinish() == "network: cannot connect to the host")
        #expect(receiver.events.count == 1)
    }

    @Test("https to a server that speaks plain HTTP is `the secure connection failed (…)`")
    func tlsFailure() throws {
        let listener = try LoopbackListener { fd, listener in
            // Whatever the client hello says, the answer is not TLS.
            guard LoopbackListener.wait(for: fd, milliseconds: 5000) else { return }
            var buffer = [UInt8](repeating: 0, count: 4096)
            _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            _ = listener.send(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), on: fd)
        }
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(TransferRequest(url: URL(string: "https://127.0.0.1:\(listener.port)/a")!), on: transport)

        let message = try #require(receiver.waitForFinish())
        #expect(message.hasPrefix("network: the secure connection failed ("), "\(message)")
        #expect(receiver.events.count == 1)
    }

    @Test("a libcurl that cannot be loaded fails the transfer with one line that says what to do")
    func missingLibrary() throws {
        let missing = CurlTransport(library: "libpushscript-no-such-curl.so.4")
        let receiver = RecordingReceiver()
        receiver.start(TransferRequest(url: URL(string: "http://127.0.0.1:9/a")!), on: missing)

        let message = try #require(receiver.waitForFinish())
        #expect(message.hasPrefix("network: libpushscript-no-such-curl.so.4 could not be loaded (cannot open shared object file"), "\(message)")
        #expect(message.hasSuffix("): install libcurl4 (scripts/setup)"), "\(message)")
        #expect(!message.contains("\n"))
        #expect(receiver.events.count == 1)
    }

    @Test("a header that is not one line is refused before anything is sent")
    func headerWithLineBreakRefused() throws {
        let server = try TestServer(["/a": .ok([1])])
        defer { server.stop() }
        let receiver = RecordingReceiver()
        receiver.start(TransferRequest(url: URL(string: server.url("/a"))!, headers: ["X-A": "1\r\nX-B: 2"]), on: transport)

        #expect(receiver.waitForFinish() == #"network: the header "X-A" is not one line"#)
        #expect(server.requestedPaths.isEmpty)
    }

    /// Reads a request head (up to its blank line) from `fd`; false when the client went first.
    static func readHead(_ fd: Int32) -> Bool {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while received.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
            guard LoopbackListener.wait(for: fd, milliseconds: 5000) else { return false }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            received += buffer[..<count]
        }
        return true
    }
}
#endif
