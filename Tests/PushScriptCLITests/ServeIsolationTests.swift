import Foundation
import TestSupport
import Testing

/// `serve --isolation process`: scripts run in worker processes; a stuck or dead worker is
/// replaced and its requests answered once by the parent.
@Suite(.serialized) struct ServeIsolationTests {
    /// The processes of a serve and its workers: their total CPU ticks and resident KiB.
    static func tree(_ pid: Int32) -> (ticks: Int, rssKiB: Int, pids: [Int32]) {
        var pids = [pid]
        // Each thread lists the children it started.
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            pids += children.split(separator: " ").compactMap { Int32($0) }
        }
        var ticks = 0
        var rss = 0
        for p in pids {
            if let stat = try? String(contentsOfFile: "/proc/\(p)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            {
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                // utime and stime are fields 14 and 15: 12 and 13 after the name.
                if fields.count > 13 { ticks += (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) }
            }
            if let status = try? String(contentsOfFile: "/proc/\(p)/status", encoding: .utf8) {
                for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
                    rss += Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
                }
            }
        }
        return (ticks, rss, pids)
    }

    static func scripts() throws -> TemporaryFolder {
        let scratch = try TemporaryFolder()
        // Integer keys that all land in one hash chain: the table's growth re-inserts them
        // through it, inside one VM instruction no hook interrupts.
        try scratch.write("scripts/com.example.collide.lua", """
            function didReceive(request, content)
              local t = {}
              for i = 1, 2^16 do t[i * (2^16 - 1)] = true end
              content.title = "survived"
            end
            """)
        try scratch.write("scripts/com.example.fast.lua", "function didReceive(r, c) c.title = 'fast' end")
        try scratch.write("scripts/com.example.count.lua", "function didReceive(r, c) c.badge = store.increment('n') end")
        try scratch.write("tmp/.keep", "")
        return scratch
    }

    @Test func aCollisionIsContainedAndTheProcessComesBackToIdle() async throws {
        let scratch = try Self.scripts()
        let serve = try ServeSession(
            // A CPU budget that covers the growth, so that the host lets it run (a smaller one
            // refuses it at once) and only the deadline can end it: the worker is stuck.
            ["--scripts", scratch.path("scripts"), "--isolation", "process", "--memory-mb", "256", "--time-ms", "500", "--cpu-ms", "60000"],
            environment: ["TMPDIR": scratch.path("tmp")])
        serve.send(ServeTests.request(1, app: "com.example.fast"))
        _ = try await serve.output(count: 1)
        try await Task.sleep(for: .milliseconds(300))
        let before = Self.tree(serve.pid)
        serve.send(ServeTests.request(2, app: "com.example.collide"))
        try await Task.sleep(for: .milliseconds(100))
        serve.send(ServeTests.request(3, app: "com.example.fast"))
        let lines = try await serve.output(count: 3)
        let answers = try lines.map(parseJSON)
        let collision = try #require(answers.first { $0["id"] as? Int == 2 })
        #expect((collision["reason"] as? [String: Any])?["kind"] as? String == "time", "\(collision)")
        #expect((answers.first { $0["id"] as? Int == 3 }?["content"] as? [String: Any])?["title"] as? String == "fast")
        let answered = ContinuousClock.now
        // Back to idle within 2 s of the answer: no CPU over a 500 ms window, memory as before.
        var idle = false
        var last = Self.tree(serve.pid)
        while ContinuousClock.now - answered < .seconds(2) {
            try await Task.sleep(for: .milliseconds(500))
            let now = Self.tree(serve.pid)
            // 100 ticks a second: 5 ticks in 500 ms is 10 % of a core.
            if now.ticks - last.ticks <= 5, now.rssKiB - before.rssKiB < 50 << 10 {
                idle = true
                break
            }
            last = now
        }
        #expect(idle, "2 s after the collision: \(last.ticks) ticks, \(last.rssKiB) KiB (before \(before.rssKiB) KiB)")
        #expect(Self.tree(serve.pid).pids != before.pids, "the stuck worker was replaced")
        _ = try await serve.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("tmp")) == [".keep"])
    }

    @Test func aWorkerThatDiesIsReplacedAndItsRequestAnsweredOnce() async throws {
        let scratch = try Self.scripts()
        try scratch.write("scripts/com.example.slow.lua", """
            function didReceive(request, content)
              local file = download("https://cdn.example.com/slow.jpg")
              content.title = file and "slow" or "failed"
            end
            """)
        try scratch.write("media/slow.jpg", jpegBytes)
        let map = try scratch.write("media.json", #"{"https://cdn.example.com/slow.jpg": {"file": "media/slow.jpg", "delayMs": 3000}}"#)
        let serve = try ServeSession(
            ["--scripts", scratch.path("scripts"), "--isolation", "process", "--media-map", map, "--offline"],
            environment: ["TMPDIR": scratch.path("tmp")])
        // The store lives in the parent's private folder: it survives a worker's replacement.
        for id in 1...2 { serve.send(ServeTests.request(id, app: "com.example.count")) }
        _ = try await serve.output(count: 2)
        serve.send(ServeTests.request(3, app: "com.example.slow"))
        try await Task.sleep(for: .milliseconds(500))
        for pid in Self.tree(serve.pid).pids.dropFirst() { kill(pid, SIGKILL) }
        let lines = try await serve.output(count: 3)
        let died = try parseJSON(lines[2])
        #expect(died["id"] as? Int == 3)
        #expect((died["reason"] as? [String: Any])?["kind"] as? String == "error", "\(died)")
        #expect(((died["reason"] as? [String: Any])?["message"] as? String)?.contains("worker process") == true)
        serve.send(ServeTests.request(4, app: "com.example.count"))
        let after = try await serve.output(count: 4)
        #expect((try parseJSON(after[3])["content"] as? [String: Any])?["badge"] as? Int == 3)
        let (status, all) = try await serve.finish()
        #expect(status == 0)
        #expect(all.count == 4, "every request answered once: \(all)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("tmp")) == [".keep"], "the private state folder is removed")
    }

    @Test func aStopDrainsTheWorkers() async throws {
        let (scratch, map) = try ServeStopTests.slowDownloads(delayMs: 1000)
        let serve = try ServeSession(
            ["--scripts", scratch.path("scripts"), "--media-map", map, "--offline", "--isolation", "process"],
            environment: ["TMPDIR": scratch.path("tmp")])
        _ = try await serve.errors(containing: "serve: pushscript")
        for id in 1...2 { serve.send(ServeTests.request(id)) }
        try await Task.sleep(for: .milliseconds(300))
        serve.signal(SIGTERM)
        let (status, lines) = try await serve.exit()
        #expect(status == 0)
        #expect(lines.count == 2)
        #expect(try lines.allSatisfy { (try parseJSON($0)["content"] as? [String: Any])?["title"] as? String == "attached" }, "\(lines)")
        #expect(try ServeStopTests.leftovers(scratch) == [])
    }
}
