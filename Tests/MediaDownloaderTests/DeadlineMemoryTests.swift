import FixtureTransports
import Foundation
import TestSupport
import MediaDownloader
import Testing

@Suite("Memory held after a download", .serialized)
struct DeadlineMemoryTests {
    /// A download with a far deadline keeps nothing once it returns: its deadline timer goes
    /// with it (a cancelled sleeping task would hold its memory until the deadline, a few
    /// hundred bytes per download, thousands of downloads in a 25 s deadline).
    @Test("10,000 finished downloads with a deadline 10 minutes away grow resident memory by less than 1.5 MB")
    func finishedDownloadsHoldNothingUntilTheirDeadline() async throws {
        let folder = try TemporaryFolder("deadline-memory")
        let picture = folder.file("source.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]).write(to: picture)
        let url = "https://cdn.example.com/p.png"
        let downloader = MediaDownloader(transport: FixtureTransport(media: [url: FixtureMedia(file: picture)]))
        let into = folder.url.appendingPathComponent("downloads", isDirectory: true)
        let deadline = ContinuousClock.now + .seconds(600)

        func download(_ count: Int) async throws {
            for _ in 0..<count {
                let file = try await downloader.download(url, into: into, deadline: deadline)
                try FileManager.default.removeItem(atPath: file.path)
            }
        }
        try await download(1000)
        let before = try #require(ProcessMemory.residentKB)
        try await download(10_000)
        let after = try #require(ProcessMemory.residentKB)
        // Held until the deadline, each download's timer would add some 3.4 MB here.
        #expect(after - before < 1500, "10,000 downloads grew resident memory by \(after - before) kB")
    }
}
