import Foundation
import Glibc
import LuaSandbox
import NotificationModel
import Testing
@testable import ScriptHost

/// The catalogue's cases whose hostile setting a fixture cannot make (a held pool, a media
/// directory of links, another thread swapping files, a lock held elsewhere): each case's script
/// from `Tests/Attacks`, run here in its setting, ends in the safe outcome its header states.
@Suite(.serialized) struct AttackSettingTests {
    static let attacks = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Attacks")

    static func script(_ name: String) throws -> Script {
        Script(name: name + ".lua", source: try String(contentsOf: attacks.appendingPathComponent(name + ".lua"), encoding: .utf8))
    }

    static func request(_ app: String = "com.example.app", time: Duration) throws -> NotificationRequest {
        NotificationRequest(payload: try originalPayload(), app: app, limits: ScriptLimits(cpuTime: .seconds(1), memoryBytes: 8 << 20, time: time))
    }

    @Test func case200AJobQueuedPastItsDeadlineNeverRuns() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = LuaThreadPool(maxThreads: 2)
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true), executor: SandboxExecutor(pool: pool))
        let release = StuckJobTests.holdStoreLock(in: folder)
        let holders = try await StuckJobTests.holdBothThreads(host, time: .seconds(3))
        let start = ContinuousClock.now
        let result = await host.deliver(try Self.request("com.example.queued", time: .milliseconds(200)), script: .script(try Self.script("200_queued_past_deadline")))
        #expect(ContinuousClock.now - start < .milliseconds(300))
        #expect(result.reason == .init(kind: .time, message: "the deadline of 200 ms came before a Lua thread was free; the script was not run"))
        #expect(result.content.title == "original")
        release()
        for holder in holders { _ = await holder.finished() }
        let check = await host.deliver(
            try Self.request("com.example.queued", time: .seconds(2)),
            script: .script(Script(name: "check.lua", source: "function didReceive(r, c) c.title = tostring(store.get('200_chunk_ran')) end")))
        #expect(check.content.title == "nil")
    }

    @Test func case201ANewAppWhileEveryThreadIsHeldFallsBackAtOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pool = LuaThreadPool(maxThreads: 2)
        let executor = SandboxExecutor(pool: pool)
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true), executor: executor)
        let scripts = folder.appendingPathComponent("scripts", isDirectory: true)
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try Data(try Self.script("201_held_pool_new_app").source).write(to: scripts.appendingPathComponent("com.example.new.lua"))
        let directory = ScriptDirectory(scripts, memoryLimit: 8 << 20, executor: executor, report: { _ in })
        let release = StuckJobTests.holdStoreLock(in: folder)
        for holder in try await StuckJobTests.holdBothThreads(host, time: .milliseconds(150)) { _ = await holder.delivered() }
        let start = ContinuousClock.now
        let refused = await host.deliver(try Self.request("com.example.new", time: .seconds(10)), from: directory)
        #expect(ContinuousClock.now - start < .milliseconds(500))
        #expect(refused.reason == .init(kind: .time, message: "the script was not run: com.example.new.lua must be checked first, and all 2 Lua threads are held by scripts that did not stop at their deadlines"))
        release()
        let settled = Deadline.after(.seconds(5))
        while pool.stuckCount > 0, !settled.hasPassed { try await Task.sleep(for: .milliseconds(5)) }
        let served = await host.deliver(try Self.request("com.example.new", time: .seconds(10)), from: directory)
        #expect(served.outcome == .completed && served.content.body == "survived")
    }

    /// A media directory as case 208 expects it: links out and in, a linked folder, a folder, a FIFO.
    static func hostileMediaDirectory(_ media: MediaFolder, outside: MediaFolder) throws {
        let fm = FileManager.default
        let big = try outside.write("big.jpg", MediaFolder.jpeg + Array(repeating: 0, count: 12_000_000))
        _ = try media.write("pic.jpg", MediaFolder.jpeg)
        try fm.createSymbolicLink(atPath: media.url.appendingPathComponent("big-link.jpg").path, withDestinationPath: big.path)
        try fm.createSymbolicLink(atPath: media.url.appendingPathComponent("inner-link.jpg").path, withDestinationPath: "pic.jpg")
        try fm.createSymbolicLink(atPath: media.url.appendingPathComponent("away").path, withDestinationPath: outside.url.path)
        try fm.createDirectory(at: media.url.appendingPathComponent("folder.jpg"), withIntermediateDirectories: true)
        #expect(mkfifo(media.url.appendingPathComponent("pipe.jpg").path, 0o600) == 0)
    }

    @Test func case208LinksAFIFOAndAFolderOfTheMediaDirectoryAreRefused() async throws {
        let media = try MediaFolder(), out = try MediaFolder(), outside = try MediaFolder()
        defer { media.remove(); out.remove(); outside.remove() }
        try Self.hostileMediaDirectory(media, outside: outside)
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: out.url, offline: true, mediaDirectory: media.url))
        let start = ContinuousClock.now
        let result = await host.deliver(try Self.request(time: .seconds(2)), script: .script(try Self.script("208_media_links")))
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(result.outcome == .completed)
        #expect(result.content.body == "blocked")
        #expect(result.content.attachments.isEmpty)
    }

    @Test func case209AFileSwappedForALinkIsNeverAttachedThroughIt() async throws {
        let media = try MediaFolder(), out = try MediaFolder(), outside = try MediaFolder()
        defer { media.remove(); out.remove(); outside.remove() }
        let secret = try outside.write("secret.png", MediaFolder.png)
        let file = media.url.appendingPathComponent("pic.jpg"), swapped = media.url.appendingPathComponent("swap.tmp")
        try Data(MediaFolder.jpeg).write(to: file)
        let host = ScriptHost(configuration: HostConfiguration(attachmentDirectory: out.url, offline: true, mediaDirectory: media.url))
        let stop = DispatchSemaphore(value: 0), stopped = DispatchSemaphore(value: 0)
        Thread {
            while stop.wait(timeout: .now()) != .success {
                _ = unlink(swapped.path)
                _ = symlink(secret.path, swapped.path)
                _ = rename(swapped.path, file.path)
                try? Data(MediaFolder.jpeg).write(to: swapped)
                _ = rename(swapped.path, file.path)
            }
            stopped.signal()
        }.start()
        let script = try Self.script("209_media_swap")
        var bodies: [String: Int] = [:]
        for _ in 0..<300 {
            let result = await host.deliver(try Self.request(time: .seconds(2)), script: .script(script))
            bodies[result.content.body, default: 0] += 1
            for attached in result.attachmentFiles {
                #expect(Array(try Data(contentsOf: attached)) == MediaFolder.jpeg, "bytes from outside the folder were attached")
            }
            result.removeAttachmentFiles()
        }
        stop.signal()
        stopped.wait()
        #expect(Set(bodies.keys).isSubset(of: ["attached", "blocked"]), "\(bodies)")
    }

    @Test func case210TheChunkRunsOnceWhenDidReceiveIsStuck() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let host = ScriptHost(configuration: HostConfiguration(stateDirectory: folder, offline: true))
        let release = StuckJobTests.holdStoreLock(in: folder)
        defer { release() }
        let start = ContinuousClock.now
        let result = await host.deliver(try Self.request(time: .milliseconds(200)), script: .script(try Self.script("210_chunk_runs_once")))
        #expect(ContinuousClock.now - start < .milliseconds(200 + 250))
        #expect(result.reason == .init(kind: .time, message: "the deadline of 200 ms came before didReceive returned"))
        #expect(result.content.title == "attacked")
        #expect(result.content.body == "original")
        #expect(result.logs.filter { $0.message == "chunk ran" }.count == 1, "\(result.logs)")
        #expect(result.logs.contains { $0.source == "host" && $0.message.hasPrefix("didReceive did not stop at the deadline") }, "\(result.logs)")
    }
}
