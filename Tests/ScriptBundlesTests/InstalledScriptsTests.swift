import Foundation
import NotificationModel
@testable import ScriptBundles
import ScriptHost
import TestSupport
import Synchronization
import Testing

/// Serving installed versions: which one answers, what it may do, probation and rollback.
@Suite struct InstalledScriptsTests {
    let folder: TemporaryFolder
    let host: ScriptHost

    init() throws {
        folder = try TemporaryFolder("bundles-serve")
        var configuration = HostConfiguration(stateDirectory: folder.url)
        configuration.attachmentDirectory = folder.url.appendingPathComponent("attachments")
        configuration.offline = true
        host = ScriptHost(configuration: configuration)
    }

    var baseline: Script { Script(name: "baseline.lua", source: TestBundles.script("baseline")) }

    func scripts(trust: TrustedKeys = TestBundles.trust(), recording: Bool = true, events: EventLog? = nil) -> InstalledScripts {
        InstalledScripts(stateDirectory: folder.url, trust: trust, baseline: .script(baseline), recording: recording) { events?.add($0) }
    }

    func install(_ bytes: [UInt8], ceiling: HostCeiling = HostCeiling()) throws {
        _ = try TestBundles.installer(folder.url, ceiling: ceiling).install(bytes, now: TestBundles.now)
    }

    func deliver(_ scripts: InstalledScripts, _ request: NotificationRequest? = nil) async -> DeliveryResult {
        await host.deliver(request ?? NotificationRequest(payload: TestBundles.payload(), app: TestBundles.app), from: scripts)
    }

    @Test func theInstalledVersionAnswersAndSaysSo() async throws {
        let scripts = scripts()
        var result = await deliver(scripts)
        #expect(result.content.title == "baseline: Hi")
        #expect(result.script == baseline.identity)
        try install(TestBundles.bundle(version: 4))
        result = await deliver(scripts)
        #expect(result.content.title == "v4: Hi")
        #expect(result.script?.version == 4)
        #expect(result.script?.sha256 == PlatformCrypto.shared.sha256Hex(Array(TestBundles.script("v4").utf8)))
        // Another app on the same host still gets the baseline.
        let other = await deliver(scripts, NotificationRequest(payload: TestBundles.payload(), app: "com.example.other"))
        #expect(other.script?.version == nil)
    }

    @Test func aVersionSignedByAKeyNoLongerTrustedIsPassedOver() async throws {
        let old = TestBundles.key(1), new = TestBundles.key(2)
        _ = try TestBundles.installer(folder.url, trust: TestBundles.trust(old, new)).install(TestBundles.bundle(version: 1, key: old), now: TestBundles.now)
        _ = try TestBundles.installer(folder.url, trust: TestBundles.trust(old, new)).install(TestBundles.bundle(version: 2, key: new), now: TestBundles.now)
        #expect(await deliver(scripts(trust: TestBundles.trust(old, new))).script?.version == 2)
        #expect(await deliver(scripts(trust: TestBundles.trust(old))).script?.version == 1)
        let events = EventLog()
        #expect(await deliver(scripts(trust: TestBundles.trust(TestBundles.key(3)), events: events)).script?.version == nil)
        #expect(events.all.count == 2)
    }

    @Test func aDamagedVersionFolderIsPassedOverForTheOneBefore() async throws {
        try install(TestBundles.bundle(version: 1))
        try install(TestBundles.bundle(version: 2, files: ["com.example.news.lua": "local u = require 'util'\n" + TestBundles.script("v2"), "util.lua": "return {}"]))
        let layout = StateLayout(directory: folder.url, app: TestBundles.app)
        try Data("return 'changed'".utf8).write(to: layout.folder(2).appendingPathComponent("util.lua"))
        let events = EventLog()
        let result = await deliver(scripts(events: events))
        #expect(result.script?.version == 1)
        #expect(events.all.first.map { "\($0)" }?.contains("util.lua is missing or is not the file its manifest signed") == true)
    }

    @Test func modulesAndMediaComeFromTheVersionsOwnFolder() async throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)
        let source = """
            local names = require "names"
            function didReceive(request, content)
              content.title = names.title
              local attached, err = content:attach{path = "logo.png"}
              content.body = attached and "attached" or tostring(err)
            end
            """
        let manifest = BundleManifest(
            app: TestBundles.app, version: 1, created: TestBundles.now - 1, expires: TestBundles.now + 1000, probation: 0, keyID: TestBundles.key().id,
            files: [
                BundleFileEntry(path: "com.example.news.lua", kind: .script, size: 0, sha256: ""),
                BundleFileEntry(path: "names.lua", kind: .module, size: 0, sha256: ""),
                BundleFileEntry(path: "media/logo.png", kind: .media, size: 0, sha256: ""),
            ])
        let bytes = try BundleWriter.bundle(manifest, contents: [
            "com.example.news.lua": Array(source.utf8), "names.lua": Array("return {title = 'from the module'}".utf8), "media/logo.png": png,
        ], key: TestBundles.key())
        try install(bytes)
        let result = await deliver(scripts())
        #expect(result.content.title == "from the module")
        #expect(result.content.body == "attached")
        #expect(result.content.attachments.count == 1)
    }

    @Test func aVersionRunsWithinWhatItAskedFor() async throws {
        let source = """
            function didReceive(request, content)
              local ok, err = http.post("https://other.example.com/x", "{}")
              content.subtitle = tostring(err)
              local n = 0
              while true do n = n + 1 end
            end
            """
        let ceiling = HostCeiling(limits: .default, allowPost: ["api.example.com", "other.example.com"])
        try install(TestBundles.bundle(version: 1, files: ["com.example.news.lua": source], limits: RequestedLimits(cpuMs: 20), allowPost: ["api.example.com"]), ceiling: ceiling)
        var configuration = host.configuration
        configuration.allowPostHosts = ["api.example.com", "other.example.com"]
        let wide = ScriptHost(configuration: configuration)
        let started = ContinuousClock.now
        let result = await wide.deliver(NotificationRequest(payload: TestBundles.payload(), app: TestBundles.app), from: scripts())
        #expect(result.reason?.kind == .cpu)
        #expect(result.script?.version == 1)
        #expect(result.content.subtitle.hasPrefix("not allowed: the host does not allow posts to other.example.com"), "\(result.content.subtitle)")
        #expect(result.reason?.message.contains("20 ms") == true, "\(result.reason?.message ?? "")")
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test func aCandidateThatFailsIsRolledBackBeforeTheNextRequest() async throws {
        try install(TestBundles.bundle(version: 1))
        let scripts = scripts(events: EventLog())
        for _ in 0..<4 { #expect(await deliver(scripts).script?.version == 1) }
        let broken = "function didReceive(request, content) content.title = 'v2'; error('v2 is broken') end"
        try install(TestBundles.bundle(version: 2, files: ["com.example.news.lua": broken], probation: 30))
        // 30 deliveries, against 0 % for version 1: the fourth failure is past 10 points.
        for n in 1...3 {
            let result = await deliver(scripts)
            #expect(result.script?.version == 2 && result.reason?.kind == .error, "delivery \(n)")
        }
        let fourth = await deliver(scripts)
        #expect(fourth.script?.version == 2)
        let after = await deliver(scripts)
        #expect(after.script?.version == 1, "rolled back before the next request")
        let status = try BundleStatus.json(stateDirectory: folder.url, app: TestBundles.app).objectValue?["apps"]?.objectValue?[TestBundles.app]?.objectValue
        let record = status?["rolledBack"]?.arrayValue?.first?.objectValue
        #expect(record?["version"] == .integer(2))
        let reason = record?["reason"]?.stringValue ?? ""
        #expect(reason.contains("4 of its first 4 deliveries failed (100%) in a probation of 30, against 0 of 4 (0%) for version 1"), "\(reason)")
        #expect(reason.contains("first failure: error: com.example.news.lua:1: v2 is broken"), "\(reason)")
        // Never again: not served, and not installed again.
        #expect(await InstalledScripts(stateDirectory: folder.url, trust: TestBundles.trust(), baseline: .none).script(for: TestBundles.app).version == 1)
        #expect(throws: BundleRefusal(.rolledBack, "com.example.news version 2 was rolled back on this device (4 of 4 deliveries failed); build a new version above 2")) {
            try self.install(TestBundles.bundle(version: 2, files: ["com.example.news.lua": broken], probation: 30))
        }
    }

    @Test func aCandidateWithinTheMarginIsPromotedAndCountsAreKept() async throws {
        let flaky = """
            local n = 0
            function didReceive(request, content)
              n = n + 1
              if content.userInfo.fail then error("flaky") end
              content.title = "v1"
            end
            """
        try install(TestBundles.bundle(version: 1, files: ["com.example.news.lua": flaky], probation: 10))
        let events = EventLog()
        let scripts = scripts(events: events)
        let failing = try Payload(value: .object(["aps": .object(["alert": .string("x"), "mutable-content": .integer(1)]), "fail": .bool(true)]))
        // One failure in ten is 10 %: exactly the margin above the baseline's 0 %, so it stays.
        #expect(await deliver(scripts, NotificationRequest(payload: failing, app: TestBundles.app)).reason?.kind == .error)
        for _ in 0..<9 { _ = await deliver(scripts) }
        #expect(events.all == [.promoted(app: TestBundles.app, version: 1)])
        for _ in 0..<5 { _ = await deliver(scripts) }
        scripts.flush()
        let counts = try BundleStatus.json(stateDirectory: folder.url).objectValue?["apps"]?.objectValue?[TestBundles.app]?.objectValue?["counts"]?.objectValue?["1"]
        #expect(counts == .object(["deliveries": .integer(15), "completed": .integer(14), "fallbacks": .object(["error": .integer(1)]),
                                   "firstFailure": .object(["kind": .string("error"), "message": .string("com.example.news.lua:4: flaky")])]))
    }

    @Test func lookingDoesNotCount() async throws {
        try install(TestBundles.bundle(version: 1, files: ["com.example.news.lua": "function didReceive() error('x') end"], probation: 5))
        let scripts = scripts(recording: false)
        for _ in 0..<10 { #expect(await deliver(scripts).script?.version == 1) }
        scripts.flush()
        #expect(!FileManager.default.fileExists(atPath: StateLayout(directory: folder.url, app: TestBundles.app).counts.url.path))
    }
}

extension ScriptLookup {
    var version: Int? {
        if case .script(let script) = self { return script.version }
        return nil
    }
}

/// Events as they come.
final class EventLog: Sendable {
    private let events = Mutex<[InstalledScripts.Event]>([])
    func add(_ event: InstalledScripts.Event) { events.withLock { $0.append(event) } }
    var all: [InstalledScripts.Event] { events.withLock { $0 } }
}
