import Foundation
import Testing
@testable import LuaSandbox

/// The attack catalogue (`Tests/Attacks`) run against the sandbox itself, with a minimal
/// stand-in for the notification API: `content` (title, subtitle, body, userInfo), `request`.
/// The full API runs the same cases through the host and `pushscript test`.
@Suite(.serialized) struct AttackCatalogueTests {
    /// Cases that need modules of the notification API this stand-in does not have.
    static let pending: Set<String> = [
        "17_shared_lib_rawset/1_poison.fixture.json",  // json, base64, hex, log, store, categories
        "17_shared_lib_rawset/2_check.fixture.json",
        "18_global_persist/2_check.fixture.json",  // download
    ]

    static var attacksDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Attacks")
    }

    @Test func everyCaseEndsInItsSafeOutcome() async throws {
        let root = Self.attacksDirectory
        // The stand-in has only `content` and `request`: it runs the study's 48 cases (52
        // fixtures, numbered 01–48); later cases use the whole API and run through
        // `pushscript test` (FixtureSuiteTests).
        let files = try fixtureFiles(under: root).filter { Self.isStudyCase($0, root: root) }
        #expect(files.count == 52, "the study's cases are 52 fixtures at \(root.path)")
        var ran = 0
        var pendingSeen: Set<String> = []
        for (folder, fixtures) in Dictionary(grouping: files, by: { $0.deletingLastPathComponent() }).sorted(by: { $0.key.path < $1.key.path }) {
            let pool = SandboxPool<LuaSandbox> { () throws(SandboxError) in try LuaSandbox() }
            for file in fixtures.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
                let relative = String(file.path.dropFirst(root.path.count + 1))
                if Self.pending.contains(relative) {
                    pendingSeen.insert(relative)
                    continue
                }
                let fixture = try AttackFixture(file: file)
                let start = Deadline.now()
                let result = await StandInHost.run(fixture, pool: pool)
                let wall = Duration.nanoseconds(Deadline.now().nanoseconds - start.nanoseconds)
                let mismatches = fixture.mismatches(result)
                #expect(mismatches.isEmpty, "\(relative): \(mismatches.joined(separator: "; "))")
                #expect(wall < fixture.timeLimit + .milliseconds(500), "\(relative) took \(wall)")
                ran += 1
            }
            _ = folder
        }
        #expect(pendingSeen == Self.pending)
        #expect(ran == 52 - Self.pending.count)
    }

    /// Whether a fixture belongs to the first 48 cases (its top folder or file starts 01–48).
    static func isStudyCase(_ file: URL, root: URL) -> Bool {
        let relative = file.path.dropFirst(root.path.count + 1)
        guard let number = Int(relative.prefix(2)) else { return false }
        return (1...48).contains(number) && relative.dropFirst(2).first == "_"
    }

    private func fixtureFiles(under root: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.lastPathComponent.hasSuffix(".fixture.json") }
    }
}

/// One fixture of the catalogue, read with Foundation's JSON.
struct AttackFixture {
    let file: URL
    let script: URL
    let payload: [String: Any]
    let cpu: Duration
    let memory: Int
    let timeLimit: Duration
    let expect: [String: Any]

    init(file: URL) throws {
        self.file = file
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        script = file.deletingLastPathComponent().appendingPathComponent(object["script"] as! String)
        payload = object["payload"] as! [String: Any]
        let limits = object["limits"] as? [String: Any] ?? [:]
        cpu = .milliseconds((limits["cpuMs"] as? Int) ?? 200)
        memory = ((limits["memoryMB"] as? Int) ?? 8) << 20
        timeLimit = .milliseconds((limits["timeMs"] as? Int) ?? 25_000)
        expect = object["expect"] as! [String: Any]
    }

    /// What differs between the expectation and the result (outcome, reason kind, content).
    func mismatches(_ result: StandInResult) -> [String] {
        var out: [String] = []
        if let outcome = expect["outcome"] as? String, outcome != result.outcome {
            out.append("outcome \(result.outcome), expected \(outcome) (\(result.reason))")
        }
        if let reason = expect["reason"] as? [String: Any], let kind = reason["kind"] as? String, kind != result.reasonKind {
            out.append("reason \(result.reasonKind ?? "none") (\(result.reason)), expected \(kind)")
        }
        for (key, value) in expect["content"] as? [String: Any] ?? [:] {
            if let text = value as? String, result.content[key] != text {
                out.append("content.\(key) = \(result.content[key] ?? "nil"), expected \(text)")
            }
        }
        return out
    }
}

struct StandInResult: Sendable {
    var outcome: String
    var reasonKind: String?
    var reason: String
    var content: [String: String]
}

/// A minimal host: a `content` object with three text fields and a live `userInfo`, a
/// read-only `request`, the fixture's limits, one pool per folder.
enum StandInHost {
    /// The content fields, shared by the Lua thread and the caller: an abandoned job may still
    /// write while the caller reads, so the caller seals the fields and takes what they were.
    final class Content: @unchecked Sendable {
        private let lock = NSLock()
        private var fields: [String: String]
        private var sealed = false
        init(_ fields: [String: String]) { self.fields = fields }

        subscript(key: String) -> String? {
            get { lock.withLock { fields[key] } }
            set { lock.withLock { if !sealed { fields[key] = newValue } } }
        }

        /// The fields as they are now; later writes change nothing.
        func seal() -> [String: String] {
            lock.withLock {
                sealed = true
                return fields
            }
        }
    }

    static func run(_ fixture: AttackFixture, pool: SandboxPool<LuaSandbox>) async -> StandInResult {
        let aps = fixture.payload["aps"] as? [String: Any] ?? [:]
        let alert = aps["alert"] as? [String: Any] ?? [:]
        let original = ["title": alert["title"] as? String ?? "", "subtitle": "", "body": alert["body"] as? String ?? ""]
        let content = Content(original)
        let source: [UInt8]
        do { source = Array(try Data(contentsOf: fixture.script)) } catch {
            return StandInResult(outcome: "fallback", reasonKind: "load", reason: "\(error)", content: original)
        }
        guard let sandbox = try? pool.checkOut() else {
            return StandInResult(outcome: "fallback", reasonKind: "load", reason: "no state", content: original)
        }
        let userInfo = LuaInput.table(LuaTable(pairs: fixture.payload.compactMap { key, value in
            guard let s = value as? String else { return nil }
            return LuaTablePair(key: .text(key), value: .text(s))
        }))
        let deadline = Deadline.after(fixture.timeLimit)
        let (cpu, memory, script) = (fixture.cpu, fixture.memory, fixture.script)
        let outcome = await SandboxExecutor().run(sandbox, deadline: deadline) { sandbox -> (String, String?, String) in
            sandbox.arm(RunLimits(cpuTime: cpu, memoryBytes: memory, deadline: deadline))
            defer { sandbox.disarm() }
            let cls = sandbox.defineClass(name: "content", slots: ["userInfo"], index: { call in
                if call[0].stringValue == "attachments" {
                    return .values([.readOnly(name: "content.attachments", LuaTable(array: []))])
                }
                guard let key = call[0].stringValue, let value = content[key] else {
                    return .error("content has no field '\(call[0].stringValue ?? "?")'")
                }
                return .values([.text(value)])
            }, newIndex: { call in
                guard let key = call[0].stringValue, content[key] != nil || key == "userInfo" else {
                    return .error("content has no field '\(call[0].stringValue ?? "?")'")
                }
                if key == "userInfo" { return .none }
                guard let text = call[1].stringValue else { return .error("\(key) must be a string") }
                content[key] = text
                return .none
            })
            guard case .compiled(let chunk) = sandbox.compile(source, chunkName: script.lastPathComponent) else {
                return ("fallback", "load", "compile")
            }
            guard let cls, let env = sandbox.makeEnvironment(), let object = sandbox.makeObject(of: cls, id: 1),
                  let info = sandbox.makeValue(userInfo),
                  let request = sandbox.makeValue(.readOnly(name: "request", LuaTable(fields: [
                      ("content", .table(LuaTable(fields: original.map { ($0.key, .text($0.value)) }))),
                      ("locales", .table(LuaTable(array: [.text("en")]))),
                  ])))
            else { return ("fallback", "memory", "setup") }
            sandbox.setSlot(0, of: object, to: info)
            switch sandbox.run(chunk, in: env) {
            case .completed: break
            case let other: return ("fallback", "load", "\(other)")
            }
            switch sandbox.call("didReceive", in: env, arguments: [request, object]) {
            case .completed: return ("completed", nil, "")
            case .missing: return ("fallback", "load", "no didReceive")
            case .error(let message): return ("fallback", "error", message)
            case .limit(let kind): return ("fallback", kind.rawValue, "limit")
            }
        }
        pool.checkIn(sandbox)
        switch outcome {
        case .finished(let (outcome, kind, reason)):
            let delivered = kind == "load" ? original : content.seal()
            return StandInResult(outcome: outcome, reasonKind: kind, reason: reason, content: delivered)
        case .abandoned:
            return StandInResult(outcome: "fallback", reasonKind: "time", reason: "abandoned", content: content.seal())
        }
    }
}
