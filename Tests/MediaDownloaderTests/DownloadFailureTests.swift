import Foundation
import MediaDownloader
import Testing

@Suite("Downloads that fail")
struct DownloadFailureTests {
    @Test("404 and 500 fail with `http NNN` and leave no file", arguments: [404, 500])
    func httpStatus(status: Int) async throws {
        let download = try await ServedDownload.run("/x.jpg", .status(status))

        download.expectFailedWithoutFiles(startingWith: "http \(status): ")
        if case .failure(let error) = download.result {
            #expect(error.kind == .http)
            #expect(error.status == status)
        }
    }

    @Test("a server that stalls mid-body ends in `timeout` near the timeout, partial file removed")
    func stallMidBody() async throws {
        var response = TestResponse.generated(200_000, prefix: SampleMedia.jpeg, contentType: "image/jpeg")
        response.sendLimit = 20_000
        response.ending = .stall
        let download = try await ServedDownload.run("/stall.jpg", response, options: DownloadOptions(timeout: .milliseconds(600)))

        download.expectFailedWithoutFiles("timeout: no complete response within 0.6 s")
        #expect(download.seconds >= 0.55 && download.seconds < 3, "took \(download.seconds) s")
    }

    @Test("a connection reset mid-body fails with `network`, partial file removed")
    func reset() async throws {
        var response = TestResponse.generated(500_000, prefix: SampleMedia.jpeg, contentType: "image/jpeg")
        response.sendLimit = 100_000
        response.ending = .reset
        let download = try await ServedDownload.run("/reset.jpg", response)

        download.expectFailedWithoutFiles(startingWith: "network: ")
    }

    @Test("a Content-Length larger than the body fails with `network` when the connection closes")
    func lengthLargerThanBody() async throws {
        var response = TestResponse.ok(SampleMedia.jpeg, contentType: "image/jpeg")
        response.length = .declared(SampleMedia.jpeg.count + 5_000)
        let download = try await ServedDownload.run("/short.jpg", response)

        download.expectFailedWithoutFiles(startingWith: "network: ")
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
        let download = try await ServedDownload.run("/big.mp4", response, options: DownloadOptions(maxBytes: 1_000_000))

        download.expectFailedWithoutFiles("too large: the body passed the limit of 1000000 bytes")
    }

    @Test("a body over maxBytes that lies with a small Content-Length is cut off too")
    func oversizedLyingLength() async throws {
        var response = TestResponse.generated(3_000_000, prefix: SampleMedia.mp4, contentType: "video/mp4")
        response.length = .declared(2_000_000)
        let download = try await ServedDownload.run("/big.mp4", response, options: DownloadOptions(maxBytes: 1_000_000))

        download.expectFailedWithoutFiles(startingWith: "too large: ")
    }

    @Test("a Content-Length over the default 50 MB is refused up front, before the body")
    func oversizedUpFront() async throws {
        var response = TestResponse.generated(60_000_000, prefix: SampleMedia.mp4, contentType: "video/mp4")
        response.sendLimit = 0
        response.ending = .stall
        let download = try await ServedDownload.run("/huge.mp4", response)

        download.expectFailedWithoutFiles("too large: Content-Length 60000000 is over the limit of 50000000 bytes")
        #expect(download.seconds < 2)
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
        let download = try await ServedDownload.run("/a.jpg", .ok(SampleMedia.jpeg), downloader: MediaDownloader(transport: sharedTransport))

        download.expectFailedWithoutFiles(startingWith: "not allowed: plain http")
        #expect(download.requestedPaths.isEmpty)
    }
}
