import Foundation
import TestSupport
import Testing

/// The attack catalogue and the examples through the built `pushscript test`, in a child
/// process under a hard wall-clock kill: a hang or a crash fails the test instead of taking
/// the test runner down. This is where CI runs the catalogue, once: every fixture file under
/// `Tests/Attacks` is counted here and must be among those that passed.
@Suite(.serialized) struct FixtureSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func attackCatalogueEndsInItsSafeOutcomes() async throws {
        let attacks = Self.root.appendingPathComponent("Tests/Attacks")
        try #require(FileManager.default.fileExists(atPath: attacks.path), "the attack catalogue is at \(attacks.path)")
        let count = FileManager.default.enumerator(atPath: attacks.path)?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".fixture.json") }.count ?? 0
        #expect(count >= 52, "the catalogue has at least the study's 52 fixtures")
        let start = ContinuousClock.now
        let out = try await CLI.run(["test", attacks.path], timeout: .seconds(60))
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.hasSuffix("\(count) passed, 0 failed\n"), "\(out.stdout.split(separator: "\n").filter { !$0.hasPrefix("PASS") }.joined(separator: "\n"))")
        #expect(ContinuousClock.now - start < .seconds(60))
    }

    @Test func examplesPass() async throws {
        let out = try await CLI.run(["test", Self.root.appendingPathComponent("examples").path], timeout: .seconds(60))
        #expect(out.status == 0, "\(out)")
        #expect(out.stdout.hasSuffix(" passed, 0 failed\n"))
    }
}
