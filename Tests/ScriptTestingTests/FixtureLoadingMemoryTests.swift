import Foundation
import TestSupport
import ScriptTesting
import Testing

/// Loading fixtures, as `watch` does on every change, holds no memory afterwards.
@Suite struct FixtureLoadingMemoryTests {
    @Test func loadingAnEmptyFixtureTenThousandTimesHoldsNoMemory() throws {
        let folder = try TemporaryFolder("fixture-memory")
        let file = folder.file("empty.fixture.json")
        try Data().write(to: file)

        func load(_ count: Int) {
            for _ in 0..<count {
                #expect(throws: FixtureError.self) { try Fixture(contentsOf: file) }
            }
        }
        load(500)
        let before = try #require(residentKB())
        load(10_000)
        let after = try #require(residentKB())
        // Reading an empty file with Data(contentsOf:) leaks 4 KiB each time: 40 MB here.
        #expect(after - before < 10_000, "10,000 loads grew resident memory by \(after - before) kB")
    }

    private func residentKB() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ")[0])
        }
        return nil
    }
}
