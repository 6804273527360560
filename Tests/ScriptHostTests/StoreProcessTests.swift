import Foundation
import TestSupport
import NotificationModel
import Testing
@testable import ScriptHost

/// Runs the built `pushscript` with `arguments` in `directory` and waits for it.
func runPushscript(_ arguments: [String], in directory: URL) async throws -> CLIOutput {
    try await CLI.run(arguments, in: directory)
}

/// The store shared by processes through `--state DIR`.
@Suite struct StoreProcessTests {
    @Test func processesSharingAStateFolderLoseNoIncrement() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state", isDirectory: true)
        let source = """
            function didReceive(request, content)
              for i = 1, 100 do content.badge = store.increment("badge") end
            end
            """
        // Four processes and four requests of this one at the same time.
        let (runs, results, _) = try await runAlongsideProcesses(source, name: "count.lua", in: dir, state: state)
        for run in runs {
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try JSONValue(jsonData: Data(run.stdout.utf8))["outcome"] == "completed", "\(run.stdout)")
        }
        #expect(results.allSatisfy { $0.outcome == .completed })
        let file = state.appendingPathComponent("com.example.news.store.json")
        #expect(try JSONValue(jsonData: Data(contentsOf: file)) == .object(["badge": .integer(800)]))
        // A later run sees the total.
        let last = try await runPushscript(
            ["run", "count.lua", "push.json", "--app", "com.example.news", "--state", state.path], in: dir)
        let json = try JSONValue(jsonData: Data(last.stdout.utf8))
        #expect(json["content"]?["badge"] == .integer(900))
    }

    @Test func boundedIncrementsAreAtomicAcrossProcesses() async throws {
        let dir = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let state = dir.appendingPathComponent("state", isDirectory: true)
        // 800 increments in eight runs at once, held at 790: exactly 790 unless one is lost.
        let source = """
            function didReceive(request, content)
              for i = 1, 100 do
                local n = store.increment("badge", 1, {min = 0, max = 790})
                if n > 790 then error("past the bound: " .. n) end
                content.badge = n
              end
            end
            """
        let (runs, results, _) = try await runAlongsideProcesses(source, name: "bounded.lua", in: dir, state: state)
        for run in runs { #expect(run.status == 0, "\(run.stdout)\(run.stderr)") }
        #expect(results.allSatisfy { $0.outcome == .completed }, "\(results.map(\.reason))")
        let file = state.appendingPathComponent("com.example.news.store.json")
        #expect(try JSONValue(jsonData: Data(contentsOf: file)) == .object(["badge": .integer(790)]))
    }
}

/// Runs `source` four times in `pushscript run` processes and four times in a host, all at
/// once, every run sharing the state folder `state` (the script and a payload are written to
/// `directory`). Returns the processes' runs, the host's results and the host.
func runAlongsideProcesses(
    _ source: String, name: String, in directory: URL, state: URL
) async throws -> (runs: [CLIOutput], results: [DeliveryResult], host: ScriptHost) {
    try Data(source.utf8).write(to: directory.appendingPathComponent(name))
    try Data(#"{"aps": {"alert": "hi", "mutable-content": 1}}"#.utf8).write(to: directory.appendingPathComponent("push.json"))
    let arguments = ["run", name, "push.json", "--app", "com.example.news", "--state", state.path]
    let host = persistentHost(state)
    let script = Script(name: name, source: source)
    let request = try request(app: "com.example.news")
    async let processes = withThrowingTaskGroup(of: CLIOutput.self) { group in
        for _ in 0..<4 { group.addTask { try await runPushscript(arguments, in: directory) } }
        return try await group.reduce(into: [CLIOutput]()) { $0.append($1) }
    }
    async let local = withTaskGroup(of: DeliveryResult.self) { group in
        for _ in 0..<4 { group.addTask { await host.deliver(request, script: .script(script)) } }
        return await group.reduce(into: [DeliveryResult]()) { $0.append($1) }
    }
    let (runs, results) = try await (processes, local)
    return (runs, results, host)
}
