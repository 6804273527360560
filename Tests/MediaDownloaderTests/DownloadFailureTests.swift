import Foundation
import MediaDownloader
import Testing

@Suite("Downloads that fail")
struct DownloadFailureTests {
    @Test("404 and 500 fail with `http NNN` and leave no file", arguments: [404, 500])
    func httpStatus(status: Int) async throws {
        let server = try TestServer(["/x.jpg": .status(status)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/x.jpg"), into: directory)

        #expect(result.errorMessage?.hasPrefix("http \(status): ") == true, "\(result)")
        if case .failure(let error) = result {
            #expect(error.kind == .http)
            #expect(error.status == status)
        }
        directory.expectEmpty()
    }

    @Test("a server that stalls mid-body ends in `timeout` near the timeout, partial file removed")
    func stallMidBody() async throws {
        var response = TestResponse.generated(200_000, prefix: SampleMedia.jpeg, contentType: "image/jpeg")
        response.sendLimit = 20_000
        response.ending = .stall
        let server = try TestServer(["/stall.jpg": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let start = ContinuousClock.now
        let result = await localDownloader().result(server.url("/stall.jpg"), into: directory,
                                                    options: DownloadOptions(timeout: .milliseconds(600)))
        let elapsed = secondsSince(start)

        #expect(result.errorMessage == "timeout: no complete response within 0.6 s")
        #expect(elapsed >= 0.55 && elapsed < 3, "took \(elapsed) s")
        directory.expectEmpty()
    }

    @Test("a connection reset mid-body fails with `network`, partial file removed")
    func reset() async throws {
        var response = TestResponse.generated(500_000, prefix: SampleMedia.jpeg, contentType: "image/jpeg")
        response.sendLimit = 100_000
        response.ending = .reset
        let server = try TestServer(["/reset.jpg": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/reset.jpg"), into: directory)

        #expect(result.errorMessage?.hasPrefix("network: ") == true, "\(result)")
        directory.expectEmpty()
    }

    @Test("a Content-Length larger than the body fails with `network` when the connection closes")
    func lengthLargerThanBody() async throws {
        var response = TestResponse.ok(SampleMedia.jpeg, contentType: "image/jpeg")
        response.length = .declared(SampleMedia.jpeg.count + 5_000)
        let server = try TestServer(["/short.jpg": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/short.jpg"), into: directory)

        #expect(result.errorMessage?.hasPrefix("network: ") == true, "\(result)")
        directory.expectEmpty()
    }

    @Test("a Content-Length smaller than the body: HTTP/1.1 ends the body there; the file has that many bytes")
    func lengthSmallerThanBody() async throws {
        var response = TestResponse.generated(50_000, prefix: SampleMedia.png, contentType: "image/png")
        response.length = .declared(1_000)
        let server = try TestServer(["/long.png": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let file = try await localDownloader().download(server.url("/long.png"), into: directory.url)

        #expect(file.size == 1_000)
        #expect(try contents(file.path).count == 1_000)
        #expect(try contents(file.path).starts(with: SampleMedia.png))
        #expect(file.type == "public.png")
        directory.expectOnly([file])
    }

    @Test("a body over maxBytes without Content-Length is cut off while streaming")
    func oversizedWhileStreaming() async throws {
        var response = TestResponse.generated(3_000_000, prefix: SampleMedia.mp4, contentType: "video/mp4")
        response.length = .omitted
        let server = try TestServer(["/big.mp4": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/big.mp4"), into: directory,
                                                    options: DownloadOptions(maxBytes: 1_000_000))

        #expect(result.errorMessage == "too large: the body passed the limit of 1000000 bytes")
        directory.expectEmpty()
    }

    @Test("a body over maxBytes that lies with a small Content-Length is cut off too")
    func oversizedLyingLength() async throws {
        var response = TestResponse.generated(3_000_000, prefix: SampleMedia.mp4, contentType: "video/mp4")
        response.length = .declared(2_000_000)
        let server = try TestServer(["/big.mp4": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(server.url("/big.mp4"), into: directory,
                                                    options: DownloadOptions(maxBytes: 1_000_000))

        #expect(result.errorMessage?.hasPrefix("too large: ") == true, "\(result)")
        directory.expectEmpty()
    }

    @Test("a Content-Length over the default 50 MB is refused up front, before the body")
    func oversizedUpFront() async throws {
        var response = TestResponse.generated(60_000_000, prefix: SampleMedia.mp4, contentType: "video/mp4")
        response.sendLimit = 0
        response.ending = .stall
        let server = try TestServer(["/huge.mp4": response])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let start = ContinuousClock.now
        let result = await localDownloader().result(server.url("/huge.mp4"), into: directory)

        #expect(result.errorMessage == "too large: Content-Length 60000000 is over the limit of 50000000 bytes")
        #expect(secondsSince(start) < 2)
        directory.expectEmpty()
    }

    @Test("nothing listening fails with `network`")
    func connectionRefused() async throws {
        let server = try TestServer([:])
        let url = server.url("/a.jpg")
        server.stop()
        try await Task.sleep(for: .milliseconds(100))
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let result = await localDownloader().result(url, into: directory, options: DownloadOptions(timeout: .seconds(5)))

        #expect(result.errorMessage?.hasPrefix("network: ") == true, "\(result)")
        directory.expectEmpty()
    }

    @Test("a refused URL never reaches the server")
    func refusedURL() async throws {
        let server = try TestServer(["/a.jpg": .ok(SampleMedia.jpeg)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let strict = MediaDownloader(transport: sharedTransport)
        let result = await strict.result(server.url("/a.jpg"), into: directory)

        #expect(result.errorMessage?.hasPrefix("not allowed: plain http") == true)
        #expect(server.requestedPaths.isEmpty)
        directory.expectEmpty()
    }
}
