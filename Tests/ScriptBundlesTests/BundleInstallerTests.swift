import Foundation
import NotificationModel
@testable import ScriptBundles
import ScriptHost
import TestSupport
import Testing

/// Installing: what is refused leaves the state as it was; versions only grow; revocations,
/// rollout draws and the host's ceiling.
@Suite struct BundleInstallerTests {
    @Test func versionsOnlyGrowAndEachRefusalLeavesTheStateAsItWas() throws {
        let folder = try TemporaryFolder("bundles-install")
        let installer = TestBundles.installer(folder.url)
        #expect(try installer.install(TestBundles.bundle(version: 2), now: TestBundles.now).line == "installed com.example.news version 2: in service (no probation)")
        let before = TestBundles.snapshot(folder.url)
        let cases: [([UInt8], BundleRefusal.Kind)] = [
            (TestBundles.bundle(version: 2), .notNewer), (TestBundles.bundle(version: 1), .notNewer),
            (TestBundles.bundle(version: 3, limits: RequestedLimits(cpuMs: 500)), .wider),
            (TestBundles.bundle(version: 3, allowPost: ["api.example.com"]), .wider),
            (TestBundles.bundle(version: 3, key: TestBundles.key(7)), .unknownKey),
            (TestBundles.bundle(version: 3, expires: TestBundles.now - 1), .expired),
        ]
        for (bytes, kind) in cases {
            #expect(throws: BundleRefusal.self) { try installer.install(bytes, now: TestBundles.now) }
            do { _ = try installer.install(bytes, now: TestBundles.now) } catch { #expect(error.kind == kind, "\(error)") }
            #expect(TestBundles.snapshot(folder.url) == before, "\(kind) changed the state")
        }
        var own = installer
        own.app = "com.example.other"
        do { _ = try own.install(TestBundles.bundle(version: 9), now: TestBundles.now) } catch { #expect(error.kind == .otherApp) }
        #expect(try installer.install(TestBundles.bundle(version: 3), now: TestBundles.now).version == 3)
    }

    @Test func aRefusalIntoAFolderNotMadeYetMakesNothing() throws {
        let folder = try TemporaryFolder("bundles-install")
        let state = folder.url.appendingPathComponent("state")
        for bytes in [TestBundles.bundle(version: 1, key: TestBundles.key(5)), TestBundles.bundle(version: 1, limits: RequestedLimits(timeMs: 60_000))] {
            #expect(throws: BundleRefusal.self) { try TestBundles.installer(state).install(bytes, now: TestBundles.now) }
            #expect(!FileManager.default.fileExists(atPath: state.path))
        }
        _ = try TestBundles.installer(state).install(TestBundles.bundle(version: 1), now: TestBundles.now)
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("com.example.news.bundles.json").path))
    }

    @Test func aCeilingLetsABundleAskForLessOrAsMuch() throws {
        let folder = try TemporaryFolder("bundles-install")
        let ceiling = HostCeiling(limits: .default, allowHTTP: ["cdn.example.com"], allowPost: ["API.example.com"])
        let installer = TestBundles.installer(folder.url, ceiling: ceiling)
        _ = try installer.install(TestBundles.bundle(version: 1, limits: RequestedLimits(cpuMs: 200, memoryMB: 2), allowHTTP: ["cdn.example.com"], allowPost: ["api.example.com"]), now: TestBundles.now)
        do { _ = try installer.install(TestBundles.bundle(version: 2, allowHTTP: ["cdn.example.com", "evil.example.com"]), now: TestBundles.now) } catch {
            #expect(error.description == "refused: wider: the bundle asks for plain http to evil.example.com, which the host does not allow; a bundle may narrow the host's limits and hosts, never widen them")
        }
    }

    @Test func aRevocationReturnsToTheLastGoodVersionAndIsNeverUndone() throws {
        let folder = try TemporaryFolder("bundles-install")
        let installer = TestBundles.installer(folder.url)
        _ = try installer.install(TestBundles.bundle(version: 1), now: TestBundles.now)
        _ = try installer.install(TestBundles.bundle(version: 2), now: TestBundles.now)
        #expect(try installer.install(TestBundles.revocation(version: 2), now: TestBundles.now).line == "revoked com.example.news version 2: version 1 is in service")
        #expect(try installer.install(TestBundles.revocation(version: 2), now: TestBundles.now).line == "com.example.news version 2 was already revoked; nothing changed")
        // A version revoked before it arrives is refused when it does.
        _ = try installer.install(TestBundles.revocation(version: 5), now: TestBundles.now)
        do { _ = try installer.install(TestBundles.bundle(version: 5), now: TestBundles.now) } catch { #expect(error.kind == .revoked) }
        #expect(try installer.install(TestBundles.revocation(version: 1), now: TestBundles.now).line == "revoked com.example.news version 1: the baseline is in service")
        let status = try BundleStatus.json(stateDirectory: folder.url)
        let app = status.objectValue?["apps"]?.objectValue?[TestBundles.app]?.objectValue
        #expect(app?["active"] == .null)
        #expect(app?["revoked"]?.arrayValue?.count == 3)
    }

    @Test func theRolloutDrawIsKeptPerVersionAndComesFromTheFoldersSeed() throws {
        for _ in 0..<8 {
            let folder = try TemporaryFolder("bundles-rollout")
            let installer = TestBundles.installer(folder.url)
            let line = try installer.install(TestBundles.bundle(version: 1, rollout: 50, probation: 5), now: TestBundles.now).line
            let state = try InstalledState.decode(Data(contentsOf: StateLayout(directory: folder.url, app: TestBundles.app).state.url))
            let seedFile = try Data(contentsOf: StateFile(directory: folder.url, app: "bundle-rollout", kind: "seed").url)
            #expect(try JSONValue(jsonData: seedFile).stringValue?.count == 64, "the seed file is a JSON string")
            let seed = try #require(RolloutDraw.seed(fileBytes: seedFile))
            let draw = RolloutDraw.draw(seed: seed, app: TestBundles.app, version: 1, crypto: PlatformCrypto.shared)
            #expect(state.candidate?.draw == draw)
            #expect(line.contains("outside its 50% rollout") == (draw >= 50), "\(line)")
            // The same folder draws the same for the same version, anew for the next.
            #expect(RolloutDraw.draw(seed: seed, app: TestBundles.app, version: 1, crypto: PlatformCrypto.shared) == draw)
        }
    }

    @Test func aTenPercentRolloutReachesAboutTenPercentOfDevices() {
        // 10,000 devices, each with its own seed: 1,000 expected, 30 the standard deviation.
        let taken = (0..<10_000).filter { _ in
            RolloutDraw.draw(seed: RolloutDraw.newSeed(), app: TestBundles.app, version: 7, crypto: PlatformCrypto.shared) < 10
        }.count
        #expect((850...1150).contains(taken), "\(taken) of 10000")
    }

    @Test func twoInstallsAtOnceTakeTurns() async throws {
        let folder = try TemporaryFolder("bundles-install")
        let installer = TestBundles.installer(folder.url)
        let bundles = (1...16).map { TestBundles.bundle(version: $0) }
        let lines = await withTaskGroup(of: String?.self) { group in
            for bytes in bundles { group.addTask { try? installer.install(bytes, now: TestBundles.now).line } }
            return await group.reduce(into: [String]()) { if let line = $1 { $0.append(line) } }
        }
        #expect(!lines.isEmpty)
        let state = try InstalledState.decode(Data(contentsOf: StateLayout(directory: folder.url, app: TestBundles.app).state.url))
        #expect(state.highest == 16, "the last version installed is the highest")
        #expect(state.generation == lines.count, "each install saw the one before it")
        #expect(state.good.map(\.version) == state.good.map(\.version).sorted())
    }
}
