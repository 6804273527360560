#if os(Linux)
import Foundation
import Glibc
import MediaDownloader
import Testing
import TestSupport

/// CurlTransport against servers that misbehave: a body cut short, a head too large, a header
/// line longer than curl takes, a chunked body that stops.
@Suite("CurlTransport edges")
struct CurlTransportEdgeTests {
    let transport = CurlTransport()

    /// A listener that reads the request head and answers `answer`, then closes.
    func answering(_ answer: [UInt8]) throws -> LoopbackListener {
        try LoopbackListener { fd, listener in
            guard CurlTransportTests.readHead(fd) else { return }
            _ = listener.send(answer, on: fd)
        }
    }

    func get(_ listener: LoopbackListener) -> TransferRequest {
        TransferRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/")!)
    }

    @Test("a server that closes before its Content-Length is reached: the connection was lost")
    func closedMidBody() throws {
        let listener = try answering(Array("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nabc".utf8))
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(get(listener), on: transport)
        #expect(receiver.waitForFinish() == "network: the connection was lost before the whole body arrived")
        #expect(receiver.body == Array("abc".utf8))
    }

    @Test("a chunked body that stops before its last chunk: the connection was lost")
    func chunkedCut() throws {
        let listener = try answering(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n10\r\nxy".utf8))
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(get(listener), on: transport)
        let message = receiver.waitForFinish()
        #expect(message?.hasPrefix("network: ") == true, "\(message ?? "none")")
        #expect(message != "nil")
    }

    @Test("a head of more than 256 KB of lines is refused, and no head is reported")
    func headTooLarge() throws {
        let line = "X-Filler: " + String(repeating: "a", count: 8_000) + "\r\n"
        let answer = "HTTP/1.1 200 OK\r\n" + String(repeating: line, count: 40) + "Content-Length: 2\r\n\r\nok"
        let listener = try answering(Array(answer.utf8))
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(get(listener), on: transport)
        #expect(receiver.waitForFinish() == "network: the response head is more than 262144 bytes")
        #expect(receiver.head == nil)
    }

    @Test("one header line longer than curl takes fails the transfer, no head reported")
    func giantHeaderLine() throws {
        let answer = "HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "b", count: 200_000) + "\r\nContent-Length: 2\r\n\r\nok"
        let listener = try answering(Array(answer.utf8))
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(get(listener), on: transport)
        let message = receiver.waitForFinish()
        #expect(message?.hasPrefix("network: ") == true, "\(message ?? "none")")
        #expect(receiver.head == nil)
    }

    @Test("interim responses each start the head again; the final one's is reported alone")
    func manyInterim() throws {
        let interim = "HTTP/1.1 100 Continue\r\nX-Interim: " + String(repeating: "i", count: 1_000) + "\r\n\r\n"
        let answer = String(repeating: interim, count: 50) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        let listener = try answering(Array(answer.utf8))
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(get(listener), on: transport)
        #expect(receiver.waitForFinish() == "nil")
        #expect(receiver.head == ResponseHead(status: 200, headers: ["Content-Length": "2", "Connection": "close"]))
        #expect(receiver.body == Array("ok".utf8))
    }

    @Test("interim responses past curl's limit on a response's header bytes fail the transfer, no head reported")
    func tooManyInterim() throws {
        let interim = "HTTP/1.1 100 Continue\r\nX-Interim: " + String(repeating: "i", count: 1_000) + "\r\n\r\n"
        let answer = String(repeating: interim, count: 400) + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        let listener = try answering(Array(answer.utf8))
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(get(listener), on: transport)
        let message = receiver.waitForFinish()
        #expect(message?.hasPrefix("network: ") == true, "\(message ?? "none")")
        #expect(receiver.head == nil)
    }

    @Test("a dropped handle: the transfer still runs to its end and reports it")
    func droppedHandle() throws {
        var response = TestResponse.generated(50_000, prefix: [], contentType: "image/jpeg")
        response.chunkSize = 5_000
        response.chunkDelayMs = 10
        let server = try TestServer(["/a": response])
        defer { server.stop() }
        let receiver = RecordingReceiver()
        do {
            // the handle is not kept
            _ = transport.startTransfer(TransferRequest(url: URL(string: server.url("/a"))!), to: receiver)
        }
        #expect(receiver.waitForFinish() == "nil")
        #expect(receiver.body.count == 50_000)
    }
}
#endif

#if os(Linux)
/// What CurlTransport puts on the wire for a post's headers.
@Suite("CurlTransport request headers")
struct CurlTransportRequestHeaderTests {
    final class Received: @unchecked Sendable {
        let lock = NSLock()
        var head = ""
    }

    @Test("a header whose value is only blanks is sent, not dropped, and curl adds no Content-Type of its own")
    func blankValueSent() throws {
        let received = Received()
        let listener = try LoopbackListener { fd, listener in
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while bytes.firstRange(of: Array("\r\n\r\n".utf8)) == nil {
                guard LoopbackListener.wait(for: fd, milliseconds: 5000) else { return }
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { return }
                bytes += buffer[..<count]
            }
            received.lock.withLock { received.head = String(decoding: bytes, as: UTF8.self) }
            _ = listener.send(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), on: fd)
        }
        defer { listener.stop() }
        let receiver = RecordingReceiver()
        receiver.start(TransferRequest(url: URL(string: "http://127.0.0.1:\(listener.port)/p")!, method: "POST",
                                       headers: ["X-Blank": " ", "Content-Type": " ", "X-Empty": ""], body: Array("x=1".utf8)),
                       on: CurlTransport())
        #expect(receiver.waitForFinish() == "nil")
        let head = received.lock.withLock { received.head }.lowercased()
        #expect(head.contains("\r\nx-empty:"), "\(head)")
        #expect(head.contains("\r\nx-blank:"), "\(head)")
        #expect(!head.contains("application/x-www-form-urlencoded"), "\(head)")
    }
}
#endif
