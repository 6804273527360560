import Foundation
import MediaDownloader
import Testing

@Suite("downloadAll")
struct DownloadAllTests {
    @Test("downloads run in parallel: one slow URL beside fast ones takes about as long as the slow one")
    func slowBesideFast() async throws {
        var slow = TestResponse.ok(SampleMedia.jpeg, contentType: "image/jpeg")
        slow.delayMs = 1_500
        var fast = TestResponse.ok(SampleMedia.png, contentType: "image/png")
        fast.delayMs = 500
        let server = try TestServer(["/slow.jpg": slow, "/a.png": fast, "/b.png": fast, "/c.png": fast])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let urls = ["/a.png", "/slow.jpg", "/b.png", "/c.png"].map(server.url)

        let start = ContinuousClock.now
        let results = await localDownloader().downloadAll(urls, into: directory.url)
        let elapsed = secondsSince(start)

        // Run one after another they would take 3 s; in parallel, about 1.5 s.
        #expect(elapsed >= 1.45 && elapsed < 2.6, "took \(elapsed) s")
        #expect(results.map { $0.file?.type } == ["public.png", "public.jpeg", "public.png", "public.png"])
        #expect(results.map { $0.file?.url } == urls)
        directory.expectOnly(results.compactMap(\.file))
    }

    @Test("each URL gets its file or its error, in the order given")
    func mixedResults() async throws {
        let server = try TestServer(["/a.gif": .ok(SampleMedia.gif), "/b.wav": .ok(SampleMedia.wav)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let urls = [server.url("/a.gif"), server.url("/missing.jpg"), "file:///etc/passwd", server.url("/b.wav")]

        let results = await localDownloader().downloadAll(urls, into: directory.url)

        #expect(results.count == 4)
        #expect(results[0].file?.type == "com.compuserve.gif")
        #expect(results[1].errorMessage?.hasPrefix("http 404") == true)
        #expect(results[2].errorMessage?.hasPrefix("not allowed") == true)
        #expect(results[3].file?.type == "com.microsoft.waveform-audio")
        directory.expectOnly(results.compactMap(\.file))
    }

    @Test("more URLs than maxConcurrent still all finish; an empty list gives no results")
    func concurrencyCap() async throws {
        let server = try TestServer(["/a.gif": .ok(SampleMedia.gif)])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let urls = Array(repeating: server.url("/a.gif"), count: 7)

        let results = await localDownloader().downloadAll(urls, into: directory.url, maxConcurrent: 2)

        #expect(results.allSatisfy { $0.file?.type == "com.compuserve.gif" })
        #expect(Set(results.compactMap { $0.file?.path }).count == 7, "each download has a file of its own")
        directory.expectOnly(results.compactMap(\.file))
        #expect(await localDownloader().downloadAll([], into: directory.url).isEmpty)
    }
}
