import FixtureTransports
import Foundation
import NotificationModel
import Synchronization
import Testing
@testable import ScriptHost

/// Exactly-once delivery when the deadline and the script's completion race: scripts that finish
/// right around the deadline, many times, some at once. Every call returns one result, on time,
/// whose outcome and reason agree, and whose content is a state the script passed through —
/// the completed content, or the best attempt — never one with a write from after the end.
@Suite(.serialized) struct DeliveryRaceTests {
    static let deadline = Duration.milliseconds(25)
    /// The longest a delivery may take: the deadline, `bestAttempt`'s 250 ms, the executor's two
    /// 50 ms graces, and a wide margin for a loaded machine.
    static let onTime = deadline + .milliseconds(250 + 100) + .seconds(2)

    static let limits = ScriptLimits(cpuTime: .seconds(30), memoryBytes: 8 << 20, time: deadline)

    /// Runs `count` deliveries, `width` at a time, timing each.
    static func race(
        _ count: Int, width: Int, host: ScriptHost, request: @escaping @Sendable (Int) throws -> (NotificationRequest, RequestAnswers?), script: Script
    ) async throws -> [(DeliveryResult, Duration)] {
        let requests = try (0..<count).map(request)
        var results: [(DeliveryResult, Duration)] = []
        for start in stride(from: 0, to: count, by: width) {
            let batch = await withTaskGroup(of: (DeliveryResult, Duration).self) { group in
                for (request, answers) in requests[start..<min(start + width, count)] {
                    group.addTask {
                        let begin = ContinuousClock.now
                        let result = await host.deliver(request, script: .script(script), answers: answers)
                        return (result, ContinuousClock.now - begin)
                    }
                }
                return await group.reduce(into: [(DeliveryResult, Duration)]()) { $0.append($1) }
            }
            results += batch
        }
        #expect(results.count == count)
        return results
    }

    @Test func aBusyLoopSizedToTheDeadline() async throws {
        let script = Script(name: "race.lua", source: """
            function didReceive(request, content)
              content.title = "started"
              for i = 1, content.userInfo.n do end
              content.title = "finished"
            end
            function bestAttempt(content, reason) content.subtitle = "best " .. reason.kind end
            """)
        let host = ScriptHost()
        // Iterations per millisecond on this machine, now.
        let probe = 2_000_000
        let calibration = await host.deliver(
            NotificationRequest(payload: try originalPayload(extra: #", "n": \#(probe)"#), limits: ScriptLimits(cpuTime: .seconds(30), memoryBytes: 8 << 20, time: .seconds(30))),
            script: .script(script))
        #expect(calibration.outcome == .completed)
        let perMs = Double(probe) / max(calibration.stats.wallMs, 0.001)
        let deadlineMs = Self.deadline.milliseconds
        let results = try await Self.race(240, width: 3, host: host, request: { i in
            // From a fifth of the deadline to one and a half times it (requests around it take
            // longer than the loop: setup, and three at once on few cores).
            let factor = 0.2 + 1.3 * Double((i * 37) % 240) / 240
            let n = Int(perMs * deadlineMs * factor)
            return (NotificationRequest(payload: try originalPayload(extra: #", "n": \#(n)"#), limits: Self.limits), nil)
        }, script: script)

        var completed = 0
        var timedOut = 0
        for (result, elapsed) in results {
            #expect(elapsed < Self.onTime)
            switch result.outcome {
            case .completed:
                completed += 1
                #expect(result.reason == nil)
                #expect(result.content.title == "finished")
                #expect(result.content.subtitle == "")
            case .fallback where result.reason?.kind == .load:
                // The deadline came before the chunk had run (a new state compiling on a busy
                // machine): the original is delivered and no handler ran.
                timedOut += 1
                #expect([
                    "race.lua did not load: the deadline of 25 ms came while its chunk ran",
                    "race.lua did not load: the deadline of 25 ms came while it compiled",
                ].contains(result.reason?.message ?? ""), "\(String(describing: result.reason))")
                #expect(result.content.title == "original")
                #expect(result.content.subtitle == "")
            case .fallback where result.reason?.message.hasSuffix("the script was not run") == true:
                // Three at once on few cores: the deadline came before a Lua thread was free.
                timedOut += 1
                #expect(result.reason == .init(kind: .time, message: "the deadline of 25 ms came before a Lua thread was free; the script was not run"))
                #expect(result.content.title == "original")
                #expect(result.content.subtitle == "")
            case .fallback:
                timedOut += 1
                #expect(result.reason == .init(kind: .time, message: "the deadline of 25 ms came before didReceive returned"))
                #expect(["started", "finished"].contains(result.content.title))
                // A thread the loaded machine did not run within the grace was given up: its
                // state is stuck, so bestAttempt, which needs it, is not called.
                if result.logs.contains(where: { $0.source == "host" && $0.message.hasPrefix("didReceive did not stop at the deadline") }) {
                    #expect(result.content.subtitle == "")
                } else {
                    #expect(result.content.subtitle == "best time")
                }
            }
            #expect(result.content.body == "original")
        }
        print("busy loop around a \(Int(deadlineMs)) ms deadline: \(completed) completed, \(timedOut) timed out of \(results.count)")
        #expect(completed > 0)
        #expect(timedOut > 0)
    }

    @Test func aDownloadWhoseDelayIsTheDeadline() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-race-\(UUID().uuidString)", isDirectory: true)
        let attachments = folder.appendingPathComponent("attachments", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = folder.appendingPathComponent("a.jpg")
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x20, count: 2000) + [0xFF, 0xD9])
        try jpeg.write(to: image)

        let script = Script(name: "race.lua", source: """
            function didReceive(request, content)
              content.title = "downloading"
              local file, err = download("https://cdn.example.com/slow.jpg")
              if file then
                local attachment, problem = content:attach(file)
                content.title = attachment and "attached" or ("not attached: " .. problem)
              else
                content.title = "failed: " .. err
              end
            end
            function bestAttempt(content, reason) content.subtitle = "best " .. reason.kind end
            """)
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: attachments, offline: true))
        let payload = try originalPayload()
        let deadlineMs = Int(Self.deadline.milliseconds)
        let results = try await Self.race(200, width: 4, host: host, request: { i in
            // The delay is the deadline, or up to 6 ms short of it (the time the request takes to
            // reach the download), or 1 ms past it.
            let delay = deadlineMs + [0, -1, -2, -3, -4, -5, -6, 1][i % 8]
            let media = ["https://cdn.example.com/slow.jpg": FixtureMedia(file: image, delayMs: delay)]
            return (NotificationRequest(payload: payload, limits: Self.limits), answers(media: media))
        }, script: script)

        var counts: [String: Int] = [:]
        var kept: Set<String> = []
        for (result, elapsed) in results {
            #expect(elapsed < Self.onTime)
            let title = result.content.title
            let attached = result.content.attachments.count
            // The states the script passes through, as (title, attachments).
            let state: String
            switch (title, attached) {
            case ("downloading", 0): state = "before the download returned"
            case ("downloading", 1): state = "attached, title not yet written"
            case ("attached", 1): state = "attached"
            case (let t, 0) where t.hasPrefix("failed: "): state = "download failed (\(t.dropFirst(8).prefix { $0 != ":" }))"
            default: state = "a mix: \(title) with \(attached) attachments"
            }
            switch result.outcome {
            case .completed:
                #expect(result.reason == nil)
                #expect(result.content.subtitle == "")
                #expect(state == "attached" || state.hasPrefix("download failed"), "\(state)")
            case .fallback:
                #expect(result.reason == .init(kind: .time, message: "the deadline of 25 ms came before didReceive returned"))
                #expect(result.content.subtitle == "best time")
                #expect(!state.hasPrefix("a mix"), "\(state)")
            }
            counts["\(result.outcome.rawValue): \(state)", default: 0] += 1
            for attachment in result.content.attachments {
                let path = try #require(URL(string: attachment.url)).path
                kept.insert(path)
                #expect(attachment.type == "public.jpeg")
            }
        }
        print("download delayed by the \(Int(Self.deadline.milliseconds)) ms deadline: \(counts.sorted { $0.key < $1.key })")
        #expect(results.contains { $0.0.outcome == .completed })
        #expect(results.contains { $0.0.outcome == .fallback })
        // Cancelled downloads leave nothing behind, and what was delivered stays.
        try await Task.sleep(for: .milliseconds(300))
        let left = Set(try FileManager.default.subpathsOfDirectory(atPath: attachments.path)
            .map { attachments.appendingPathComponent($0).path }
            .filter { (try? FileManager.default.attributesOfItem(atPath: $0)[.type] as? FileAttributeType) == .typeRegular })
        #expect(left == kept)
        for path in kept {
            #expect(FileManager.default.contents(atPath: path) == jpeg)
        }
    }
}
