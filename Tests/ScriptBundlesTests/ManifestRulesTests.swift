import Foundation
import NotificationModel
@testable import ScriptBundles
import ScriptHost
import Testing

/// The manifest's rules: every one broken is refused, with what broke it.
@Suite struct ManifestRulesTests {
    func problem(_ change: (inout [String: JSONValue]) -> Void) -> String? {
        guard case .object(var object) = ManifestRulesTests.valid.jsonValue else { return "not an object" }
        change(&object)
        do {
            _ = try BundleManifest(json: .object(object))
            return nil
        } catch {
            return error.message
        }
    }

    static let valid = BundleVerifierTests.manifest(key: TestBundles.key())

    static func file(_ path: String, _ kind: String = "module", size: Int64 = 1) -> JSONValue {
        .object(["path": .string(path), "kind": .string(kind), "size": .integer(size), "sha256": .string(String(repeating: "a", count: 64))])
    }

    static let script = file("com.example.news.lua", "script")

    @Test func theValidManifestReadsBackAsItself() throws {
        #expect(try BundleManifest(json: Self.valid.jsonValue) == Self.valid)
        #expect(problem { _ in } == nil)
    }

    @Test func pathsThatCouldLeaveTheFolderAreRefused() {
        let cases: [(String, String)] = [
            ("../evil.lua", "climbs out of the bundle with '..'"), ("lib/../../x.lua", "climbs out"), ("/etc/x.lua", "is absolute"),
            ("a\\b.lua", "backslash"), ("a\u{0}.lua", "NUL"), ("a//b.lua", "empty part"), ("lib/.hidden.lua", "starts with '.'"),
            ("a b.lua", "0x20"), ("é.lua", "0xc3"), ("", "empty"), (String(repeating: "a/", count: 9) + "x.lua", "folders deep"),
            (String(repeating: "a", count: 129) + ".lua", "longer than 128"),
        ]
        for (path, expected) in cases {
            let message = problem { $0["files"] = .array([Self.script, Self.file(path)]) }
            #expect(message?.contains(expected) == true, "\(path.debugDescription): \(message ?? "accepted")")
        }
    }

    @Test func countsSizesAndKindsAreBoundedBeforeAnythingIsRead() {
        let many = (0...BundleManifest.maximumFiles).map { Self.file(String(format: "m%04d.lua", $0)) }
        #expect(problem { $0["files"] = .array([Self.script] + many) }?.contains("at most 256") == true)
        #expect(problem { $0["files"] = .array([Self.script, Self.file("media/big.mov", "media", size: 1 << 30)]) }?.contains("declares 1073741824 bytes") == true)
        #expect(problem { $0["files"] = .array([Self.file("com.example.news.lua", "script", size: Int64(1 << 20) + 1)]) }?.contains("at most 1 MiB") == true)
        let media = (0..<4).map { Self.file("media/\($0).mov", "media", size: 10 << 20) }
        #expect(problem { $0["files"] = .array([Self.script] + media) }?.contains("more than 32 MiB") == true)
        #expect(problem { $0["files"] = .array([Self.file("media/x.png", "module")]) }?.contains("not a .lua file outside media/") == true)
        #expect(problem { $0["files"] = .array([Self.script, Self.file("x.png", "media")]) }?.contains("not under media/") == true)
        #expect(problem { $0["files"] = .array([Self.file("lib/x.lua", "script")]) }?.contains("at the top") == true)
        #expect(problem { $0["files"] = .array([Self.file("a.lua")]) }?.contains("0 scripts") == true)
        #expect(problem { $0["files"] = .array([Self.script, Self.file("a.lua"), Self.file("A.lua")]) } != nil)
        #expect(problem { $0["files"] = .array([Self.script, Self.file("b.lua"), Self.file("B.lua")]) }?.contains("not sorted") == true)
        #expect(problem { $0["files"] = .array([Self.file("Lib.lua"), Self.script, Self.file("lib.lua")]) }?.contains("letter case") == true)
    }

    @Test func everyKeyIsCheckedAndNoOtherIsTaken() {
        #expect(problem { $0["extra"] = .integer(1) }?.contains("unknown key 'extra'") == true)
        #expect(problem { $0["version"] = nil }?.contains("has no 'version'") == true)
        #expect(problem { $0["version"] = .integer(0) }?.contains("outside 1...") == true)
        #expect(problem { $0["version"] = .string("2") }?.contains("not an integer") == true)
        #expect(problem { $0["rollout"] = .integer(101) } != nil)
        #expect(problem { $0["expires"] = $0["created"] }?.contains("not after created") == true)
        #expect(problem { $0["app"] = .string("../x") }?.contains("bundle identifier") == true)
        #expect(problem { $0["keyId"] = .string("ABCDEF0123456789") }?.contains("hex") == true)
        #expect(problem { $0["limits"] = .object([:]) }?.contains("empty") == true)
        #expect(problem { $0["limits"] = .object(["cpuMs": .integer(0)]) } != nil)
        #expect(problem { $0["limits"] = .object(["cpus": .integer(1)]) }?.contains("unknown key") == true)
        #expect(problem { $0["allowPost"] = .array([.string("b.com"), .string("a.com")]) }?.contains("not sorted") == true)
        #expect(problem { $0["allowPost"] = .array([.string("A.com")]) }?.contains("lower-case host") == true)
        #expect(problem { $0["limits"] = .object(["cpuMs": .integer(50)]); $0["allowHttp"] = .array([.string("cdn.example.com")]) } == nil)
    }

    @Test func limitsNarrowAndNeverWiden() {
        let asked = RequestedLimits(cpuMs: 50, memoryMB: 4)
        let narrowed = asked.narrowing(.default)
        #expect(narrowed.cpuTime == .milliseconds(50) && narrowed.memoryBytes == 4 << 20 && narrowed.time == .seconds(25))
        let tight = asked.narrowing(ScriptLimits(cpuTime: .milliseconds(20), memoryBytes: 8 << 20, time: .seconds(1)))
        #expect(tight.cpuTime == .milliseconds(20))
        #expect(asked.widening(.default) == nil)
        #expect(RequestedLimits(cpuMs: 201).widening(.default) == "cpuMs 201, above the host's 200")
        #expect(RequestedLimits(memoryMB: 9).widening(.default) == "memoryMB 9, above the host's 8")
        #expect(RequestedLimits(timeMs: 25_000).widening(.default) == nil)
    }
}
