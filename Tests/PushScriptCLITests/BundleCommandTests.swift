import Foundation
import TestSupport
import Testing

/// The bundle commands from the command line alone: usage errors, serving while installing,
/// and installs killed at random.
@Suite(.serialized) struct BundleCommandTests {
    /// A folder with a key and versions 1...`count` of `com.example.news`, each titling "vN: …",
    /// and a baseline in `app/`.
    struct Workspace {
        let folder: TemporaryFolder
        var url: URL { folder.url }

        init(versions count: Int) async throws {
            folder = try TemporaryFolder("bundle-cli")
            try folder.write("app/com.example.news.lua", Self.script("baseline"))
            try folder.write("push.json", #"{"aps": {"alert": {"title": "Hi", "body": "b"}, "mutable-content": 1}}"#)
            let key = try await CLI.run(["bundle", "keygen", "--out", "team.key"], in: folder.url)
            #expect(key.status == 0, "\(key)")
            for n in 1...max(count, 1) where count > 0 {
                try folder.write("v\(n)/com.example.news.lua", Self.script("v\(n)"))
                let out = try await CLI.run(["bundle", "build", "v\(n)", "--app", "com.example.news", "--version", "\(n)", "--key", "team.key", "--probation", "0", "-o", "v\(n).psbundle"], in: folder.url)
                #expect(out.status == 0, "\(out)")
            }
        }

        static func script(_ tag: String) -> String {
            "function didReceive(request, content) content.title = \"\(tag): \" .. content.title end\n"
        }

        func install(_ n: Int) async throws -> CLIOutput {
            try await CLI.run(["bundle", "install", "v\(n).psbundle", "--state", "state", "--trust", "team.key.pub"], in: url)
        }

        /// The version `run` answers with now, nil for the baseline.
        func served() async throws -> Int? {
            let out = try await CLI.run(["run", "app/com.example.news.lua", "push.json", "--app", "com.example.news", "--state", "state", "--trust", "team.key.pub"], in: url)
            let json = try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any]
            return (json?["script"] as? [String: Any])?["version"] as? Int
        }
    }

    @Test func usageErrorsSayWhatToGive() async throws {
        let ws = try await Workspace(versions: 1)
        let cases: [([String], String)] = [
            (["bundle", "verify", "v1.psbundle"], "pushscript bundle verify: give --trust KEY.pub, the public key the bundle must be signed by"),
            (["bundle", "install", "v1.psbundle", "--trust", "team.key.pub"], "pushscript bundle install: give --state DIR, the state folder to install into"),
            (["bundle", "verify", "nothing.psbundle", "--trust", "team.key.pub"], "pushscript bundle verify: cannot read nothing.psbundle; check the path"),
            (["bundle", "verify", "v1.psbundle", "--trust", "push.json"], "pushscript bundle verify: --trust \(ws.url.path)/push.json: not a public key file: its one line must read 'pushscript-ed25519 BASE64'; give a file that 'pushscript bundle keygen' wrote"),
            (["bundle", "keygen", "--out", "team.key"], "pushscript bundle keygen: team.key exists; give another path or remove it (a key is never replaced)"),
            (["bundle", "build", "v1", "--app", "com.example.news", "--version", "0", "--key", "team.key", "-o", "x"], "pushscript bundle build: --version takes a whole number from 1 to 999999999, not '0'"),
            (["bundle", "build", "v1", "--app", "com.example.news", "--version", "2", "--key", "team.key.pub", "-o", "x"], "pushscript bundle build: --key \(ws.url.path)/team.key.pub: not a private key file: its one line must read 'pushscript-ed25519-private BASE64'; give a file that 'pushscript bundle keygen' wrote"),
            (["bundle", "build", "app", "--app", "com.example.other", "--version", "2", "--key", "team.key"], "pushscript bundle build: give -o FILE, the bundle file to write"),
            (["run", "app/com.example.news.lua", "push.json", "--trust", "team.key.pub"], "pushscript run: --trust needs --state DIR, the state folder bundles are installed into"),
            (["test", "app", "--state", "state"], "pushscript test: --state needs --trust KEY.pub, the key whose installed versions the fixtures run against"),
        ]
        for (arguments, line) in cases {
            let out = try await CLI.run(arguments, in: ws.url)
            #expect(out.status == 2, "\(arguments): \(out)")
            #expect(out.errorLines == [line], "\(arguments)")
            #expect(out.stdout.isEmpty)
        }
        let mode = try FileManager.default.attributesOfItem(atPath: ws.url.appendingPathComponent("team.key").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let broken = try await CLI.run(["bundle", "build", "app", "--app", "com.example.news", "--version", "2", "--key", "team.key", "-o", "x"], in: ws.url, environment: [:])
        #expect(broken.status == 0, "the app folder's one script builds: \(broken)")
        try ws.folder.write("bad/com.example.news.lua", "function didReceive(request, content) content.title = end")
        let refused = try await CLI.run(["bundle", "build", "bad", "--app", "com.example.news", "--version", "2", "--key", "team.key", "-o", "x"], in: ws.url)
        #expect(refused.status == 2)
        #expect(refused.errorLines.first?.hasPrefix("pushscript bundle build: com.example.news.lua:1: unexpected symbol near 'end'") == true, "\(refused)")
    }

    @Test func verifyAndInspectSayWhatABundleIs() async throws {
        let ws = try await Workspace(versions: 1)
        let ok = try await CLI.run(["bundle", "verify", "v1.psbundle", "--trust", "team.key.pub"], in: ws.url)
        #expect(ok.status == 0)
        #expect(ok.lines.count == 1 && ok.stdout.hasPrefix("verified: v1.psbundle: com.example.news version 1, 1 file ("), "\(ok)")
        var bytes = try Data(contentsOf: ws.url.appendingPathComponent("v1.psbundle"))
        bytes[bytes.count - 3] ^= 1
        try bytes.write(to: ws.url.appendingPathComponent("bad.psbundle"))
        let bad = try await CLI.run(["bundle", "verify", "bad.psbundle", "--trust", "team.key.pub"], in: ws.url)
        #expect(bad.status == 1)
        #expect(bad.stdout == "refused: file does not match: com.example.news.lua is not the file the manifest signed (its SHA-256 differs); build the bundle again (bad.psbundle)\n")
        let inspect = try await CLI.run(["bundle", "inspect", "v1.psbundle"], in: ws.url)
        let manifest = try JSONSerialization.jsonObject(with: Data(inspect.stdout.utf8)) as? [String: Any]
        #expect(manifest?["app"] as? String == "com.example.news" && manifest?["version"] as? Int == 1 && manifest?["probation"] as? Int == 0)
        #expect((manifest?["files"] as? [[String: Any]])?.first?["path"] as? String == "com.example.news.lua")
        #expect(manifest?["revocation"] == nil)
        let revoke = try await CLI.run(["bundle", "revoke", "--app", "com.example.news", "--version", "1", "--key", "team.key", "-o", "r1.psbundle"], in: ws.url)
        #expect(revoke.status == 0, "\(revoke)")
        let revocation = try JSONSerialization.jsonObject(
            with: Data(try await CLI.run(["bundle", "inspect", "r1.psbundle"], in: ws.url).stdout.utf8)) as? [String: Any]
        #expect(revocation?["revocation"] as? Bool == true && revocation?["version"] as? Int == 1, "\(String(describing: revocation))")
        let notBundle = try await CLI.run(["bundle", "inspect", "push.json"], in: ws.url)
        #expect(notBundle.status == 1 && notBundle.stdout.hasPrefix("refused: malformed: not a PushScript bundle"))
    }

    /// 10,000 requests through `serve` while versions 1 to 6 are installed one after another:
    /// every answer is one whole version (its title, its number and its script's SHA-256 agree),
    /// versions only move forward, and the request after the last install gets the last one.
    @Test func installingWhileServingNeverShowsHalfAVersion() async throws {
        let ws = try await Workspace(versions: 6)
        var sha: [String: String] = [:]
        for n in 1...6 {
            let out = try await CLI.run(["bundle", "inspect", "v\(n).psbundle"], in: ws.url)
            let files = (try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])?["files"] as? [[String: Any]]
            sha["v\(n)"] = files?.first?["sha256"] as? String
        }
        let serve = try ServeSession(["--scripts", ws.url.appendingPathComponent("app").path, "--state", ws.url.appendingPathComponent("state").path, "--trust", ws.url.appendingPathComponent("team.key.pub").path])
        let total = 10_000
        let request = #"{"app": "com.example.news", "payload": {"aps": {"alert": {"title": "Hi", "body": "b"}, "mutable-content": 1}}, "id": "#
        let sender = Task {
            for i in 0..<total {
                serve.send(request + "\(i)}")
                if i % 500 == 499 { try? await Task.sleep(for: .milliseconds(5)) }
            }
        }
        for n in 1...6 {
            try await Task.sleep(for: .milliseconds(150))
            let out = try await ws.install(n)
            #expect(out.status == 0, "\(out)")
        }
        await sender.value
        _ = try await serve.output(count: total, timeout: .seconds(120))
        serve.send(request + "\"last\"}")
        let (status, lines) = try await serve.finish(timeout: .seconds(120))
        #expect(status == 0)
        #expect(lines.count == total + 1)
        var last = 0
        var seen: Set<Int> = []
        for line in lines {
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let title = (answer["content"] as? [String: Any])?["title"] as? String ?? ""
            let script = answer["script"] as? [String: Any]
            let version = script?["version"] as? Int
            let tag = version.map { "v\($0)" } ?? "baseline"
            #expect(title == "\(tag): Hi", "\(line.prefix(200))")
            if let version {
                #expect(script?["sha256"] as? String == sha[tag], "\(tag)")
                #expect(version >= last, "version \(version) after \(last)")
                last = version
                seen.insert(version)
            }
        }
        #expect(last == 6, "the request after the last install gets version 6")
        #expect(seen.count >= 2, "versions seen: \(seen.sorted())")
    }

    /// `bundle install` killed (SIGKILL) at random moments: the state always serves a whole
    /// version, the one before or the new one, and the next install goes on from there.
    @Test func installsKilledAtRandomLeaveAVersionInService() async throws {
        let rounds = 24
        let ws = try await Workspace(versions: rounds + 1)
        #expect(try await ws.install(1).status == 0)
        var inService = 1
        var committed = 0
        for n in 2...(rounds + 1) {
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = ["bundle", "install", "v\(n).psbundle", "--state", "state", "--trust", "team.key.pub"]
            process.currentDirectoryURL = ws.url
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // Somewhere in the install: a debug binary takes about 50 ms to start, and an
            // install with its flushes to the disk about as long again.
            try await Task.sleep(for: .microseconds(Int.random(in: 30_000...110_000)))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let served = try await ws.served()
            #expect(served == inService || served == n, "after killing the install of v\(n): \(served.map(String.init) ?? "baseline")")
            if served == n { committed += 1 }
            inService = served ?? inService
        }
        // Whatever the kills left, a new install completes and serves.
        let out = try await ws.install(rounds + 1)
        #expect(out.status == 0 || out.stdout.hasPrefix("refused: not newer"), "\(out)")
        #expect(try await ws.served() == rounds + 1)
        let left = try FileManager.default.contentsOfDirectory(atPath: ws.url.appendingPathComponent("state/com.example.news.bundles").path)
        #expect(!left.contains { $0.hasPrefix(".incoming-") }, "\(left)")
        print("installs killed: \(rounds), of which \(committed) had committed")
    }
}
