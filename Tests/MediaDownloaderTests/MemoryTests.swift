import Foundation
import TestSupport
import MediaDownloader
import Testing

/// The environment variable that makes ``MemoryProbe`` run, holding
/// `<small URL>|<large URL>|<attachment directory>`.
private let probeVariable = "MEDIADOWNLOADER_MEMORY_PROBE"

@Suite("Memory")
struct MemoryTests {
    /// Measured in a child process (this test binary again, running only ``MemoryProbe``), so that
    /// other tests running in parallel here cannot move the peak.
    @Test("downloading 50 MB raises the peak memory by less than 4 MB over downloading 100 KB")
    func fiftyMegabytes() async throws {
        let server = try TestServer([
            "/small.mp4": .generated(100_000, prefix: SampleMedia.mp4, contentType: "video/mp4"),
            "/large.mp4": .generated(50_000_000, prefix: SampleMedia.mp4, contentType: "video/mp4"),
        ])
        defer { server.stop() }
        let directory = try AttachmentDirectory()
        defer { directory.remove() }

        let probe = "\(server.url("/small.mp4"))|\(server.url("/large.mp4"))|\(directory.url.path)"
        let (status, output) = try await runSelf(filter: "MemoryProbe", environment: [probeVariable: probe])
        let line = try #require(output.split(separator: "\n").first { $0.hasPrefix("MEMORY-PROBE ") },
                                "the child printed no result; exit \(status), output:\n\(output)")
        var values: [String: Int] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1]) }
        }
        let small = try #require(values["small-peak-kB"])
        let large = try #require(values["large-peak-kB"])

        #expect(status == 0)
        #expect(values["large-size"] == 50_000_000)
        #expect(large - small < 4 * 1024, "\(line)")
        if Benchmarking.isOn { print(line) }
        directory.expectEmpty()
    }

    /// Runs this test binary again with only the tests matching `filter`; returns its exit status
    /// and everything it printed.
    private func runSelf(filter: String, environment: [String: String]) async throws -> (Int32, String) {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: (process.terminationStatus, String(decoding: data, as: UTF8.self)))
            }
        }
    }
}

/// Runs only in the child that ``MemoryTests`` starts: downloads the small file (to warm up),
/// then the small and the large file, each after resetting the peak, and prints the peaks.
@Suite("Memory probe (child process only)")
struct MemoryProbe {
    @Test(.enabled(if: ProcessInfo.processInfo.environment[probeVariable] != nil))
    func probe() async throws {
        let parts = try #require(ProcessInfo.processInfo.environment[probeVariable]).split(separator: "|").map(String.init)
        try #require(parts.count == 3)
        let directory = URL(fileURLWithPath: parts[2])
        let downloader = MediaDownloader(transport: PlatformNetwork.make(),
                                         policy: DownloadPolicy(allowingHTTPFor: ["127.0.0.1"]))

        let warmUp = try await downloader.download(parts[0], into: directory)
        try FileManager.default.removeItem(atPath: warmUp.path)

        let reset = ProcessMemory.resetPeak()
        let small = try await downloader.download(parts[0], into: directory)
        let smallPeak = try #require(ProcessMemory.peakKB)
        try FileManager.default.removeItem(atPath: small.path)

        ProcessMemory.resetPeak()
        let large = try await downloader.download(parts[1], into: directory)
        let largePeak = try #require(ProcessMemory.peakKB)
        try FileManager.default.removeItem(atPath: large.path)

        print("MEMORY-PROBE reset=\(reset ? 1 : 0) small-peak-kB=\(smallPeak) large-peak-kB=\(largePeak)"
              + " large-size=\(large.size) rss-kB=\(ProcessMemory.residentKB ?? -1)")
    }
}
