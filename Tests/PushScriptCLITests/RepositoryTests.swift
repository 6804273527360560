import Foundation
import TestSupport
import Testing

/// The repository stands on its own: nothing it builds, tests, runs or documents reaches
/// outside it.
@Suite struct RepositoryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func nothingReachesOutsideTheRepository() throws {
        let outside = "../" + "shared"
        var found: [String] = []
        for top in ["README.md", "Sources", "Tests", "docs", "examples", "scripts", ".ci", "types", "Package.swift"] {
            let url = Self.root.appendingPathComponent(top)
            var files: [URL] = []
            if let items = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) {
                files = items.compactMap { $0 as? URL }
            } else {
                files = [url]
            }
            for file in files {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                if text.contains(outside) { found.append(String(file.path.dropFirst(Self.root.path.count + 1))) }
            }
        }
        #expect(found.isEmpty, "these files name a folder outside the repository: \(found)")
    }

    @Test func theReadmeLintExamplePasses() async throws {
        let payloads = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("examples/payloads").path)
            .filter { $0.hasSuffix(".json") }.sorted()
        #expect(payloads.count >= 12)
        let out = try await CLI.run(["lint"] + payloads.map { "examples/payloads/\($0)" }, in: Self.root)
        #expect(out.status == 0, "\(out)")
    }
}
