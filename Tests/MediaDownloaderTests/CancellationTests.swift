import Foundation
import MediaDownloader
import Testing

@Suite("Cancellation, timeouts and the deadline")
struct CancellationTests {
    /// A JPEG body that trickles: 1 KB every 20 ms, 200 KB in all (about 4 s).
    private var trickle: TestResponse {
        var response = TestResponse.generated(200_000, prefix: SampleMedia.jpeg, contentType: "image/jpeg")
        response.chunkSize = 1_000
        response.chunkDelayMs = 20
        return response
    }

    /// Waits until a partial file shows up in `directory`.
    private func waitForPartialFile(in directory: AttachmentDirectory) async throws -> String {
        let start = ContinuousClock.now
        while secondsSince(start) < 5 {
            if let name = directory.fileNames.first(where: { $0.hasSuffix(".download") }) { return name }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no partial file appeared")
        return ""
    }

    @Test("cancelling the task mid-body returns promptly with `deadline` and removes the partial file")
    func cancelMidBody() async throws {
        let server = try TestServer(["/slow.jpg": trickle])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let downloader = localDownloader()
        let url = server.url("/slow.jpg")

        let task = Task { await downloader.result(url, into: directory) }
        let partial = try await waitForPartialFile(in: directory)
        #expect(!partial.isEmpty)
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let result = await task.value
        let elapsed = secondsSince(cancelledAt)

        #expect(result.errorMessage == "deadline: the download was cancelled (the request's deadline came)")
        #expect(elapsed < 0.5, "returned \(elapsed) s after cancellation")
        directory.expectEmpty()
    }

    @Test("the deadline coming mid-body ends the download at the deadline with `timeout`")
    func deadlineMidBody() async throws {
        let download = try await ServedDownload.run("/slow.jpg", trickle, options: DownloadOptions(timeout: .seconds(10)), deadline: .milliseconds(700))

        download.expectFailedWithoutFiles("timeout: the request's deadline came before the download finished")
        #expect(download.seconds >= 0.65 && download.seconds < 1.7, "took \(download.seconds) s")
    }

    @Test("a timeout shorter than the deadline wins")
    func timeoutBeforeDeadline() async throws {
        let download = try await ServedDownload.run("/slow.jpg", trickle, options: DownloadOptions(timeout: .milliseconds(300)), deadline: .seconds(20))

        download.expectFailedWithoutFiles("timeout: no complete response within 0.3 s")
        #expect(download.seconds < 1.3)
    }

    @Test("a server that delays its response past the timeout ends in `timeout`")
    func slowHead() async throws {
        var response = TestResponse.ok(SampleMedia.gif, contentType: "image/gif")
        response.delayMs = 3_000
        let download = try await ServedDownload.run("/late.gif", response, options: DownloadOptions(timeout: .milliseconds(400)))

        download.expectFailedWithoutFiles(startingWith: "timeout: ")
        #expect(download.seconds < 1.5)
    }

    @Test("no download starts after the deadline: `deadline`, and the server sees no request")
    func afterDeadline() async throws {
        let download = try await ServedDownload.run("/a.jpg", .ok(SampleMedia.jpeg), deadline: .milliseconds(-1))

        download.expectFailedWithoutFiles("deadline: the request's deadline has passed; no download may start")
        #expect(download.requestedPaths.isEmpty)
    }

    @Test("a task cancelled before the download starts gets `deadline` at once")
    func cancelledBeforeStart() async throws {
        let server = try TestServer(["/a.jpg": .ok(SampleMedia.jpeg)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let downloader = localDownloader()
        let url = server.url("/a.jpg")

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await downloader.result(url, into: directory)
        }
        let result = await task.value

        #expect(result.errorMessage?.hasPrefix("deadline: ") == true)
        #expect(server.requestedPaths.isEmpty)
        directory.expectEmpty()
    }

    @Test("cancelling downloadAll cancels every download in flight and leaves no files")
    func cancelAll() async throws {
        let server = try TestServer(["/1.jpg": trickle, "/2.jpg": trickle, "/3.jpg": trickle])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let downloader = localDownloader()
        let urls = ["/1.jpg", "/2.jpg", "/3.jpg"].map(server.url)

        let task = Task { await downloader.downloadAll(urls, into: directory.url) }
        _ = try await waitForPartialFile(in: directory)
        try await Task.sleep(for: .milliseconds(100))
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let results = await task.value

        #expect(secondsSince(cancelledAt) < 0.5)
        #expect(results.count == 3)
        for result in results { #expect(result.errorMessage?.hasPrefix("deadline: ") == true) }
        directory.expectEmpty()
    }
}
