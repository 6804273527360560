import FixtureTransports
import Foundation
import TestSupport
import MediaDownloader
import Testing

/// Measurements, not checks of speed: they run only with `PUSHSCRIPT_BENCHMARK=1`, and are
/// meant for a release build:
///
///     PUSHSCRIPT_BENCHMARK=1 swift test -c release --filter MediaDownloaderBenchmarks
@Suite("MediaDownloaderBenchmarks", .serialized,
       .enabled(if: Benchmarking.isOn))
struct MediaDownloaderBenchmarks {
    @Test("throughput of one large download over loopback, the platform's network")
    func loopbackThroughput() async throws {
        let size = 500_000_000
        let server = try TestServer(["/big.mp4": .generated(size, prefix: SampleMedia.mp4, contentType: "video/mp4")])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let downloader = MediaDownloader(transport: PlatformNetwork.make(),
                                         policy: DownloadPolicy(allowingHTTPFor: ["127.0.0.1"]))
        var rates: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            let file = try await downloader.download(server.url("/big.mp4"), into: directory.url,
                                                     options: DownloadOptions(maxBytes: size))
            let seconds = secondsSince(start)
            #expect(file.size == size)
            try FileManager.default.removeItem(atPath: file.path)
            rates.append(Double(size) / seconds / 1_000_000)
        }
        let formatted = rates.map { String(format: "%.0f", $0) }.joined(separator: ", ")
        print("BENCHMARK loopback 500 MB: \(formatted) MB/s (best \(String(format: "%.0f", rates.max() ?? 0)) MB/s)")
        directory.expectEmpty()
    }

    @Test("throughput of one large download through the fixture transport")
    func fixtureThroughput() async throws {
        let size = 200_000_000
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let source = directory.url.appendingPathComponent("source.bin")
        #expect(FileManager.default.createFile(atPath: source.path, contents: nil))
        let handle = try FileHandle(forWritingTo: source)
        let block = Data(SampleMedia.mp4 + [UInt8](repeating: 0x5A, count: 1_000_000 - SampleMedia.mp4.count))
        for _ in 0..<(size / block.count) { try handle.write(contentsOf: block) }
        try handle.close()
        let downloader = MediaDownloader(transport: FixtureTransport(media: ["https://cdn.test/big.mp4": FixtureMedia(file: source)]))

        let start = ContinuousClock.now
        let file = try await downloader.download("https://cdn.test/big.mp4", into: directory.url,
                                                 options: DownloadOptions(maxBytes: size))
        let seconds = secondsSince(start)
        #expect(file.size == size)
        print("BENCHMARK fixture 200 MB: \(String(format: "%.0f", Double(size) / seconds / 1_000_000)) MB/s")
    }

    @Test("downloadAll of three URLs that each take 1 s")
    func threeSlowURLs() async throws {
        var slow = TestResponse.ok(SampleMedia.jpeg, contentType: "image/jpeg")
        slow.delayMs = 1_000
        let server = try TestServer(["/1.jpg": slow, "/2.jpg": slow, "/3.jpg": slow])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }
        let downloader = MediaDownloader(transport: PlatformNetwork.make(),
                                         policy: DownloadPolicy(allowingHTTPFor: ["127.0.0.1"]))
        var times: [Double] = []
        for _ in 0..<3 {
            let start = ContinuousClock.now
            let results = await downloader.downloadAll(["/1.jpg", "/2.jpg", "/3.jpg"].map(server.url),
                                                       into: directory.url)
            times.append(secondsSince(start))
            #expect(results.allSatisfy { $0.file != nil })
            for case .success(let file) in results { try FileManager.default.removeItem(atPath: file.path) }
        }
        print("BENCHMARK downloadAll 3 × 1 s: " + times.map { String(format: "%.3f s", $0) }.joined(separator: ", "))
    }
}
