import Foundation
import NotificationModel
@testable import ScriptBundles
import ScriptHost
import TestSupport
import Testing

/// A session started from installed state, as the extension adapter starts one: the version in
/// service answers, the system's time can expire it, and it is counted once it has finished.
@Suite struct InstalledSessionTests {
    @Test func anExpiredSessionHandsOverTheInstalledVersionsBestAttemptAndIsCounted() async throws {
        let folder = try TemporaryFolder("bundles-session")
        var configuration = HostConfiguration(stateDirectory: folder.url)
        configuration.attachmentDirectory = folder.url.appendingPathComponent("attachments")
        configuration.offline = true
        configuration.limits.time = .seconds(20)
        configuration.limits.cpuTime = .seconds(20)
        let host = ScriptHost(configuration: configuration)
        let source = """
            function didReceive(request, content) content.title = 'v3 working'; while true do end end
            function bestAttempt(content, reason) content.title = 'v3 best: ' .. content.title end
            """
        _ = try TestBundles.installer(folder.url).install(
            TestBundles.bundle(version: 3, files: ["\(TestBundles.app).lua": source]), now: TestBundles.now)
        let installed = InstalledScripts(
            stateDirectory: folder.url, trust: TestBundles.trust(), baseline: .script(Script(name: "baseline.lua", source: TestBundles.script("baseline"))))

        let session = await host.start(NotificationRequest(payload: TestBundles.payload(), app: TestBundles.app), from: installed)
        try await Task.sleep(for: .milliseconds(100))
        let expired = ContinuousClock.now
        session.expire()
        let delivered = await session.delivered()
        #expect(ContinuousClock.now - expired < .milliseconds(500))
        #expect(delivered.script?.version == 3)
        #expect(delivered.reason?.kind == .time)
        #expect(delivered.reason?.message.contains("system's time ran out") == true, "\(String(describing: delivered.reason))")
        #expect(delivered.content.title == "v3 best: v3 working")

        _ = await session.finished()
        // The record is made after the session finished, on its own task.
        var counts: JSONValue?
        for _ in 0..<100 {
            installed.flush()
            let status = try BundleStatus.json(stateDirectory: folder.url, app: TestBundles.app)
            counts = status.objectValue?["apps"]?.objectValue?[TestBundles.app]?.objectValue?["counts"]?.objectValue?["3"]
            if counts?.objectValue?["deliveries"] == .integer(1) { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(counts?.objectValue?["deliveries"] == .integer(1), "\(String(describing: counts))")
        #expect(counts?.objectValue?["fallbacks"]?.objectValue?["time"] == .integer(1), "\(String(describing: counts))")
    }
}
