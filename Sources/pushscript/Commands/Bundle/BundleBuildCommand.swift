import Foundation
import ScriptBundles
import ScriptHost
import ScriptTesting

/// `pushscript bundle build DIR --app ID --version N --key KEY -o FILE`: packs and signs.
enum BundleBuildCommand: Command {
    static let name = "bundle build"
    static let summary = "pack an app's script, its modules and media into a signed bundle"
    static let description = """
        usage: pushscript bundle build DIR --app ID --version N --key KEY -o FILE [options]

        Packs DIR/<app>.lua (or the one .lua file at the top of DIR), the modules it requires
        by name from DIR, and every file under DIR/media, into one bundle signed by KEY. The
        script must compile and define didReceive. The limit and host options ask the host for
        less than it allows (a bundle never gets more); left out, the host's apply.
        """
    static let expiresIn = Option("--expires-in", "DAYS", default: "30", help: "days until it can no longer be installed")
    static let rollout = Option("--rollout", "PERCENT", default: "100", help: "the share of devices that take it")
    static let probation = Option("--probation", "N", default: "\(BundleManifest.defaultProbation)", help: "first deliveries watched on each device; 0 for none")
    static let cpuMs = Option("--cpu-ms", "N", help: "ask for a CPU budget of N ms (within the host's)")
    static let memoryMB = Option("--memory-mb", "N", help: "ask for a memory limit of N MiB (within the host's)")
    static let timeMs = Option("--time-ms", "N", help: "ask for a deadline of N ms (within the host's)")
    static let allowHTTP = Option("--allow-http", "HOST", repeatable: true, help: "the hosts it reaches over plain http (repeatable;", "within the host's; left out, the host's)")
    static let allowPost = Option("--allow-post", "HOST", repeatable: true, help: "the hosts it posts to (repeatable; within the", "host's; left out, the host's)")
    static let options = [
        BundleOptions.app, BundleOptions.version, BundleOptions.key, BundleOptions.out, expiresIn, rollout, probation,
        cpuMs, memoryMB, timeMs, allowHTTP, allowPost,
    ]

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        guard a.positionals.count == 1 else {
            throw UsageError("pushscript bundle build: expected one DIR, got \(a.positionals.count) arguments; run 'pushscript bundle build --help'")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: a.positionals[0], isDirectory: &isFolder), isFolder.boolValue else {
            throw UsageError("pushscript bundle build: \(a.positionals[0]) is not a folder; give the folder that holds the app's script")
        }
        let folder = URL(fileURLWithPath: a.positionals[0], isDirectory: true)
        let app = try BundleOptions.required(a, BundleOptions.app, command: name, what: "the app's bundle identifier")
        guard BundleManifest.isValidApp(app) else {
            throw UsageError("pushscript bundle build: --app '\(app)' is not a bundle identifier; give letters, digits, '-' and '.'")
        }
        let version = try BundleOptions.number(a, BundleOptions.version, in: 1...BundleManifest.maximumVersion, command: name, what: "the bundle's version")
        let key = try BundleOptions.signingKey(a, command: name)
        let out = try BundleOptions.required(a, BundleOptions.out, command: name, what: "the bundle file to write")
        let days = try BundleOptions.number(a, expiresIn, in: 1...3650, default: 30, command: name, what: "")
        let percent = try BundleOptions.number(a, rollout, in: 0...100, default: 100, command: name, what: "")
        let watched = try BundleOptions.number(a, probation, in: 0...100_000, default: BundleManifest.defaultProbation, command: name, what: "")
        var limits = RequestedLimits()
        for (option, setting) in [(cpuMs, LimitSetting.cpuMs), (memoryMB, .memoryMB), (timeMs, .timeMs)] {
            guard let text = a.value(option) else { continue }
            guard let n = Int64(text), (1...setting.maximum).contains(n) else {
                throw UsageError("pushscript bundle build: \(option.name) takes \(setting.range), not '\(text)'")
            }
            switch setting {
            case .cpuMs: limits.cpuMs = n
            case .memoryMB: limits.memoryMB = n
            case .timeMs: limits.timeMs = n
            }
        }
        let source = try await gather(folder, app: app)
        let now = ManifestClock.now()
        let manifest = BundleManifest(
            app: app, version: version, created: now, expires: now + Int64(days) * 86_400, rollout: percent, probation: watched,
            limits: limits, allowHTTP: try hosts(a.all(allowHTTP), allowHTTP), allowPost: try hosts(a.all(allowPost), allowPost),
            keyID: key.id, files: source.entries)
        let bytes = try BundleWriter.bundle(manifest, contents: source.contents, key: key)
        // The bundle as an installer reads it: what was written is what verifies.
        guard case .bundle(let verified) = try? BundleVerifier(trust: TrustedKeys([key.publicKey])).verify(bytes, now: now) else {
            throw UsageError("pushscript bundle build: the bundle made does not verify; check --app and the files' names")
        }
        try BundleOptions.write(bytes, to: out, command: name)
        let kinds = BundleFileEntry.Kind.allCases.compactMap { kind -> String? in
            let n = verified.manifest.files.filter { $0.kind == kind }.count
            return n == 0 ? nil : "\(n) \(kind.rawValue)\(n == 1 || kind == .media ? "" : "s")"
        }
        print("built \(out): \(app) version \(version), \(kinds.joined(separator: ", ")) (\(BundleOptions.size(bytes.count))), signed by key \(key.id), expires \(ManifestClock.text(manifest.expires))")
        return .success
    }

    /// The script, its modules and media of `folder`.
    private static func gather(_ folder: URL, app: String) async throws(UsageError) -> BundleSource {
        var source = BundleSource()
        do {
            let scriptURL = try BundleSource.scriptFile(in: folder, app: app)
            let script = try readScript(scriptURL.path, command: name)
            let checker: ScriptChecker
            do { checker = try await ScriptChecker.forHost() } catch {
                throw UsageError("pushscript bundle build: the script cannot be checked: \(error)")
            }
            if let error = await checker.check(script).first(where: { $0.severity == .error }) {
                throw UsageError("pushscript bundle build: \(error.line(file: scriptURL.lastPathComponent)); fix the script first ('pushscript check' shows more)")
            }
            try source.add(scriptURL, as: scriptURL.lastPathComponent, kind: .script)
            let (modules, problems) = checker.modules(requiredBy: script, libraries: [])
            for (file, finding) in problems {
                printError("pushscript bundle build: warning: \(finding.line(file: file?.lastPathComponent ?? scriptURL.lastPathComponent)); the bundle leaves it to the host's --lib folders")
            }
            for module in modules {
                guard let path = BundleSource.path(of: module, under: folder) else { continue }
                try source.add(module, as: path, kind: .module)
            }
            try source.addMedia(under: folder)
        } catch let problem as BundleSource.Problem {
            throw UsageError("pushscript bundle build: \(problem.message)")
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("pushscript bundle build: \(error)")
        }
        return source
    }

    /// Host names as a manifest lists them: lower case, sorted, each once; nil for none given.
    private static func hosts(_ given: [String], _ option: Option) throws(UsageError) -> [String]? {
        guard !given.isEmpty else { return nil }
        let hosts = Set(given.map { $0.lowercased() }).sorted()
        if let bad = hosts.first(where: { $0.isEmpty || !$0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") } }) {
            throw UsageError("pushscript bundle build: \(option.name) '\(bad)' is not a host name; give a name like cdn.example.com")
        }
        return hosts
    }
}
