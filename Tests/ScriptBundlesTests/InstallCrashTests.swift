import Foundation
@testable import ScriptBundles
import ScriptHost
import Synchronization
import TestSupport
import Testing

/// File operations that stop for good after a number of steps: every call from then on fails,
/// as if the process had been killed there (nothing after it, cleanup included, happens).
final class DyingFileOperations: InstallFileOperations {
    let steps: Int?
    private let done = Mutex(0)
    private let real = SystemFileOperations()

    /// Operations that die after `steps` calls (never when nil).
    init(dieAfter steps: Int?) { self.steps = steps }

    var count: Int { done.withLock { $0 } }

    private func step(_ what: String) throws(FileOperationError) {
        let alive = done.withLock { n -> Bool in
            defer { n += 1 }
            return steps.map { n < $0 } ?? true
        }
        if !alive { throw FileOperationError("killed before \(what)") }
    }

    func makeDirectory(_ url: URL) throws(FileOperationError) { try step("mkdir"); try real.makeDirectory(url) }
    func writeNew(_ bytes: [UInt8], to url: URL) throws(FileOperationError) {
        try step("write")
        // Killed half-way through a file: half of it is there.
        if let steps, count == steps {
            try real.writeNew(Array(bytes.prefix(bytes.count / 2)), to: url)
            throw FileOperationError("killed while writing")
        }
        try real.writeNew(bytes, to: url)
    }
    func move(_ from: URL, to: URL) throws(FileOperationError) { try step("rename"); try real.move(from, to: to) }
    func syncDirectory(_ url: URL) throws(FileOperationError) { try step("sync"); try real.syncDirectory(url) }
    func remove(_ url: URL) throws(FileOperationError) { try step("remove"); try real.remove(url) }
}

/// An install stopped after any of its steps leaves the previous version in service, and the
/// next install finishes the job.
@Suite struct InstallCrashTests {
    func served(_ state: URL) async -> Int? {
        let scripts = InstalledScripts(stateDirectory: state, trust: TestBundles.trust(), baseline: .none, recording: false)
        guard case .script(let script) = await scripts.script(for: TestBundles.app) else { return nil }
        return script.version
    }

    @Test func killedAtEveryStepThePreviousVersionStaysInService() async throws {
        let v1 = TestBundles.bundle(version: 1, files: ["com.example.news.lua": TestBundles.script("v1")])
        let v2 = TestBundles.bundle(version: 2, files: [
            "com.example.news.lua": "local u = require 'lib.util'\n" + TestBundles.script("v2"), "lib/util.lua": "return {}", "media/a.png": "PNG",
        ])
        // How many steps an install of v2 over v1 takes, counted with operations that never die.
        let counting = DyingFileOperations(dieAfter: nil)
        do {
            let folder = try TemporaryFolder("bundles-crash")
            _ = try TestBundles.installer(folder.url).install(v1, now: TestBundles.now)
            var installer = TestBundles.installer(folder.url)
            installer.files = counting
            _ = try installer.install(v2, now: TestBundles.now)
            #expect(await served(folder.url) == 2)
        }
        let steps = counting.count
        #expect(steps >= 10, "\(steps) steps")
        for k in 0..<steps {
            let folder = try TemporaryFolder("bundles-crash")
            _ = try TestBundles.installer(folder.url).install(v1, now: TestBundles.now)
            let before = try Data(contentsOf: StateLayout(directory: folder.url, app: TestBundles.app).state.url)
            var dying = TestBundles.installer(folder.url)
            dying.files = DyingFileOperations(dieAfter: k)
            let outcome = Result { () throws(BundleRefusal) in try dying.install(v2, now: TestBundles.now) }
            let after = try Data(contentsOf: StateLayout(directory: folder.url, app: TestBundles.app).state.url)
            let version = await served(folder.url)
            // The state file is either the old one or the new one, whole: nothing in between.
            if after == before {
                #expect(version == 1, "killed after \(k) of \(steps) steps: version \(version.map(String.init) ?? "baseline") in service")
            } else {
                #expect(version == 2, "killed after \(k) of \(steps) steps, past the commit: version \(version.map(String.init) ?? "baseline")")
            }
            if case .failure(let refusal) = outcome { #expect(refusal.kind == .state, "\(refusal)") }
            // The next install (or a newer one) finishes, and leaves nothing behind.
            let retry = try? TestBundles.installer(folder.url).install(v2, now: TestBundles.now)
            #expect(retry != nil || after != before)
            _ = try TestBundles.installer(folder.url).install(TestBundles.bundle(version: 3), now: TestBundles.now)
            #expect(await served(folder.url) == 3)
            let layout = StateLayout(directory: folder.url, app: TestBundles.app)
            let left = try FileManager.default.contentsOfDirectory(atPath: layout.versions.path).sorted()
            #expect(!left.contains { $0.hasPrefix(".incoming-") }, "after \(k): \(left)")
            let stray = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") && $0.contains("bundle") && !$0.contains("seed") }
            #expect(stray.isEmpty, "after \(k): \(stray)")
        }
    }
}
