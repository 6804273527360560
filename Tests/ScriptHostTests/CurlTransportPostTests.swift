#if os(Linux)
import Foundation
import MediaDownloader
import Testing
@testable import ScriptHost

/// A post over the Linux network, libcurl, as it reaches a server on 127.0.0.1: its method,
/// headers and body, and the headers the transport sets itself.
@Suite(.serialized) struct CurlTransportPostTests {
    /// Sends `request` to `server` over a fresh ``CurlTransport`` and waits for the answer.
    func send(_ request: TransferRequest) -> Poster.Outcome? {
        let response = PostResponse()
        _ = CurlTransport().startTransfer(request, to: response)
        guard response.done.wait(timeout: .now() + 5) == .success else { return nil }
        return response.outcome
    }

    func url(_ server: PostTestServer, _ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(server.port)\(path)")!
    }

    @Test(arguments: ["POST", "PUT"])
    func theBodyAndHeadersArrive(method: String) throws {
        let server = try PostTestServer { _ in PostTestAnswer(status: 201, headers: ["X-Answer": "yes"], body: Array("done".utf8)) }
        let body = Array(#"{"id":"m1","text":"\#(String(repeating: "x", count: 20_000))"}"#.utf8)
        let request = TransferRequest(
            url: url(server, "/receipt?id=7"), method: method,
            headers: ["Content-Type": "application/json", "Authorization": "Basic a2V5Og==", "Accept-Encoding": "gzip"], body: body)
        let outcome = try #require(send(request))

        let answer = try outcome.get()
        #expect(answer.status == 201)
        #expect(answer.body == Array("done".utf8))
        let received = try #require(server.received.first)
        #expect(server.received.count == 1)
        #expect(received.method == method)
        #expect(received.path == "/receipt?id=7")
        #expect(received.body == body)
        #expect(received.headers["content-type"] == "application/json")
        #expect(received.headers["authorization"] == "Basic a2V5Og==")
        #expect(received.headers["content-length"] == "\(body.count)")
        // The response comes as sent, and a body goes without waiting for a 100 Continue.
        #expect(received.headers["accept-encoding"] == "identity")
        #expect(received.headers["expect"] == nil)
    }

    @Test func anEmptyBodyIsPostedWithLengthZero() throws {
        let server = try PostTestServer { _ in PostTestAnswer(status: 200) }
        let outcome = try #require(send(TransferRequest(url: url(server, "/empty"), method: "POST", headers: ["Content-Type": "text/plain"])))

        #expect(try outcome.get().status == 200)
        let received = try #require(server.received.first)
        #expect(received.method == "POST")
        #expect(received.headers["content-length"] == "0")
        #expect(received.body.isEmpty)
    }
}
#endif
