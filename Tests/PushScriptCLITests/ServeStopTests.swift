import Foundation
import TestSupport
import Testing

/// `serve` stopped as process managers stop services: a signal drains, a closed output ends
/// cleanly, and neither leaves files behind.
@Suite(.serialized) struct ServeStopTests {
    /// A script whose requests download one slow image and attach it.
    static let downloading = """
        function didReceive(request, content)
          local file, err = download("https://cdn.example.com/slow.jpg")
          if file then assert(content:attach(file)) end
          content.title = file and "attached" or ("failed: " .. tostring(err))
        end
        """

    /// A folder with the downloading script and a media map whose answer comes after `delayMs`.
    static func slowDownloads(delayMs: Int) throws -> (TemporaryFolder, String) {
        let scratch = try TemporaryFolder()
        try scratch.write("scripts/com.example.news.lua", downloading)
        try scratch.write("media/slow.jpg", jpegBytes)
        let map = try scratch.write("media.json", #"{"https://cdn.example.com/slow.jpg": {"file": "media/slow.jpg", "delayMs": \#(delayMs)}}"#)
        try scratch.write("tmp/.keep", "")
        return (scratch, map)
    }

    /// What serve left in its temporary directory (its own attachment folders).
    static func leftovers(_ scratch: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.path("tmp")).filter { $0 != ".keep" }
    }

    @Test func aStopDuringASlowDownloadAnswersEveryRequestRead() async throws {
        let (scratch, map) = try Self.slowDownloads(delayMs: 1500)
        let serve = try ServeSession(
            ["--scripts", scratch.path("scripts"), "--media-map", map, "--offline"], environment: ["TMPDIR": scratch.path("tmp")])
        _ = try await serve.errors(containing: "serve: pushscript")
        for id in 1...3 { serve.send(ServeTests.request(id)) }
        try await Task.sleep(for: .milliseconds(400))
        serve.signal(SIGTERM)
        let (status, lines) = try await serve.exit()
        #expect(status == 0, "\(serve.errorLines)")
        try #require(lines.count == 3, "\(lines) \(serve.errorLines)")
        for line in lines {
            let object = try parseJSON(line)
            #expect(object["outcome"] as? String == "completed", "\(line)")
            #expect((object["content"] as? [String: Any])?["title"] as? String == "attached", "\(line)")
        }
        #expect(serve.errorLines.contains("serve: stopped on SIGTERM: 3 requests answered"), "\(serve.errorLines)")
        #expect(try Self.leftovers(scratch) == [])
    }

    @Test func sighupDrainsAndLeavesNoFiles() async throws {
        let (scratch, map) = try Self.slowDownloads(delayMs: 0)
        let serve = try ServeSession(
            ["--scripts", scratch.path("scripts"), "--media-map", map, "--offline"], environment: ["TMPDIR": scratch.path("tmp")])
        serve.send(ServeTests.request(1))
        let first = try await serve.output(count: 1)
        #expect((try parseJSON(first[0])["content"] as? [String: Any])?["title"] as? String == "attached")
        #expect(try Self.leftovers(scratch).count == 1, "the attachment folder is there while serve runs")
        serve.signal(SIGHUP)
        let (status, _) = try await serve.exit()
        #expect(status == 0)
        #expect(serve.errorLines.contains("serve: stopped on SIGHUP: 1 request answered"), "\(serve.errorLines)")
        #expect(try Self.leftovers(scratch) == [])
    }

    @Test(arguments: ["thread", "process"])
    func aSecondSignalEndsAtOnceAndSaysWhatItDropped(isolation: String) async throws {
        let (scratch, map) = try Self.slowDownloads(delayMs: 20_000)
        let serve = try ServeSession(
            ["--scripts", scratch.path("scripts"), "--media-map", map, "--offline", "--time-ms", "30000", "--isolation", isolation],
            environment: ["TMPDIR": scratch.path("tmp")])
        _ = try await serve.errors(containing: "serve: pushscript")
        serve.send(ServeTests.request(1))
        serve.send(ServeTests.request(2))
        try await Task.sleep(for: .milliseconds(300))
        let began = ContinuousClock.now
        serve.signal(SIGTERM)
        try await Task.sleep(for: .milliseconds(200))
        serve.signal(SIGINT)
        let (status, lines) = try await serve.exit()
        #expect(ContinuousClock.now - began < .seconds(5))
        #expect(status == 128 + SIGINT)
        #expect(lines.isEmpty)
        #expect(serve.errorLines.contains("serve: second SIGINT: ending at once; 2 requests read were not answered"), "\(serve.errorLines)")
        try await Task.sleep(for: .milliseconds(100))
        #expect(try Self.leftovers(scratch) == [])
    }

    @Test(arguments: ["thread", "process"])
    func aClosedOutputEndsServingCleanly(isolation: String) async throws {
        let (scratch, map) = try Self.slowDownloads(delayMs: 0)
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["serve", "--scripts", scratch.path("scripts"), "--media-map", map, "--offline", "--isolation", isolation]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path("tmp")]) { $1 }
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        let stderr = LineCollector()
        try process.run()
        stderr.read(errors.fileHandleForReading)
        // Nobody reads the answers: the first write fails with EPIPE.
        try output.fileHandleForReading.close()
        let lines = (1...5).map { ServeTests.request($0) }.joined(separator: "\n") + "\n"
        input.fileHandleForWriting.write(Data(lines.utf8))
        let end = ContinuousClock.now + .seconds(30)
        while process.isRunning, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(10)) }
        try #require(!process.isRunning, "serve went on after its output was closed")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        while !stderr.isClosed, ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(10)) }
        #expect(stderr.all.contains { $0.hasPrefix("serve: standard output was closed: 0 answers written") }, "\(stderr.all)")
        #expect(try Self.leftovers(scratch) == [])
        try? input.fileHandleForWriting.close()
    }
}
