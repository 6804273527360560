import Foundation
import TestSupport
import Testing

/// `pushscript bench`: its figures, and how the deliveries ended.
@Suite(.serialized) struct BenchTests {
    @Test func printsLatencyThroughputAndOutcomes() async throws {
        let scratch = try TemporaryFolder()
        let script = try scratch.write("rules.lua", #"function didReceive(r, c) c.title = c.userInfo.t end"#)
        let payload = try scratch.write("p.json", #"{"aps": {"alert": "hi", "mutable-content": 1}, "t": "x"}"#)
        let out = try await CLI.run(["bench", script, payload, "-n", "200", "--concurrency", "2"])
        #expect(out.status == 0, "\(out)")
        let lines = out.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(out)")
        #expect(lines[0] == "bench: 200 deliveries of rules.lua, concurrency 2, after 100 warm-up")
        let latency = try figures(lines[1], #"latency: p50 (\d+\.\d{3}) ms, p99 (\d+\.\d{3}) ms, mean (\d+\.\d{3}) ms, max (\d+\.\d{3}) ms"#)
        #expect(latency.count == 4)
        if latency.count == 4 {
            #expect(latency[0] > 0)
            #expect(latency[0] <= latency[1])
            #expect(latency[1] <= latency[3])
        }
        let throughput = try figures(lines[2], #"throughput: (\d+) deliveries/s \(200 in (\d+\.\d{3}) s\)"#)
        #expect(throughput.first ?? 0 > 0)
        #expect(lines[3] == "outcomes: 200 completed")
    }

    @Test func nativeRulesRunThroughTheSamePipeline() async throws {
        let scratch = try TemporaryFolder()
        let script = try scratch.write("rules.lua", #"function didReceive(r, c) error("not run") end"#)
        let payload = try scratch.write("p.json", #"{"aps": {"alert": "hi", "mutable-content": 1}, "headline": "x"}"#)
        let out = try await CLI.run(["bench", script, payload, "-n", "30", "--native", "rewrite"])
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.hasPrefix("bench: 30 deliveries of the native rule rewrite, concurrency 1, after 30 warm-up\n"))
        #expect(out.stdout.split(separator: "\n").last == "outcomes: 30 completed")
        let wrong = try await CLI.run(["bench", script, payload, "--native", "lua"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("pushscript bench: --native lua is not a rule; give noop or rewrite"))
    }

    @Test func countsFallbacksByReason() async throws {
        let scratch = try TemporaryFolder()
        let script = try scratch.write("rules.lua", #"function didReceive(r, c) error("no") end"#)
        let payload = try scratch.write("p.json", #"{"aps": {"alert": "hi", "mutable-content": 1}}"#)
        let out = try await CLI.run(["bench", script, payload, "-n", "20"])
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.split(separator: "\n").last == "outcomes: 20 fallback (error)")
        #expect(out.stdout.hasPrefix("bench: 20 deliveries of rules.lua, concurrency 1, after 20 warm-up\n"))
    }

    @Test func leavesNoAttachmentsBehind() async throws {
        let scratch = try scriptAndPayload(#"function didReceive(r, c) c:attach(download("https://cdn.example.com/p.jpg")) end"#)
        let (script, payload) = (scratch.script, scratch.payload)
        let picture = try scratch.write("p.jpg", jpegBytes)
        let temporary = scratch.url.appendingPathComponent("tmp", isDirectory: true)
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let out = try await CLI.run(
            ["bench", script, payload, "-n", "20", "--media", "https://cdn.example.com/p.jpg=\(picture)"],
            environment: ["TMPDIR": temporary.path])
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.split(separator: "\n").last == "outcomes: 20 completed")
        let left = FileManager.default.enumerator(atPath: temporary.path)?.allObjects.compactMap { $0 as? String } ?? []
        #expect(left.filter { $0.hasSuffix(".jpg") }.isEmpty, "\(left.count) paths left, e.g. \(left.prefix(3))")
    }

    @Test func usageErrors() async throws {
        let inputs = try scriptAndPayload("function didReceive() end")
        let (script, payload) = (inputs.script, inputs.payload)
        let zero = try await CLI.run(["bench", script, payload, "-n", "0"])
        #expect(zero.status == 2)
        #expect(zero.errorLines == ["pushscript bench: -n takes a positive whole number, not '0'"])
        #expect(zero.stdout == "")
        let missing = try await CLI.run(["bench", script])
        #expect(missing.status == 2)
        #expect(missing.errorLines == ["pushscript bench: expected SCRIPT and PAYLOAD, got 1 argument; run 'pushscript bench --help'"])
    }

    /// The numbers a line holds, or none when it does not match.
    private func figures(_ line: String, _ pattern: String) throws -> [Double] {
        guard let match = try Regex(pattern).wholeMatch(in: line) else {
            Issue.record("unexpected line: \(line)")
            return []
        }
        return (1..<match.output.count).compactMap { (match.output[$0].substring).flatMap { Double($0) } }
    }
}
