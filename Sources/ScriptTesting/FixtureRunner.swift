import Foundation
import NotificationModel
import ScriptBundles
import ScriptHost

/// Runs fixtures (SPEC section 4): the fixtures of one folder through one host, in file-name
/// order, as one extension process that iOS reuses; folders in parallel.
public struct FixtureRunner: Sendable {
    /// The configuration every folder's host starts from.
    public var configuration: HostConfiguration
    /// Keep the fixtures whose name or file path contains this (see ``runFiles(_:)``).
    public var filter: String?
    /// How many folders run at once.
    public var parallelFolders: Int
    /// Whether a failing fixture's report holds its whole result (`test --verbose`).
    public var verbose = false
    /// Installed bundles to run the fixtures against (`test --state DIR --trust KEY.pub`): a
    /// fixture's `script` is then the baseline, and the version installed for its app runs
    /// when there is one. Nil runs each fixture's script.
    public var installed: InstalledScripts?

    /// A runner. Downloads are answered from fixtures only (`offline`).
    public init(configuration: HostConfiguration = HostConfiguration(), filter: String? = nil, parallelFolders: Int = ProcessInfo.processInfo.activeProcessorCount) {
        var configuration = configuration
        configuration.offline = true
        self.configuration = configuration
        self.filter = filter
        self.parallelFolders = max(1, parallelFolders)
    }

    /// Runs the folders, calling `report` with each fixture file's result in folder order;
    /// returns the totals.
    public func run(_ folders: [FixtureFolder], report: @Sendable (FixtureFileResult) -> Void) async -> FixtureSummary {
        var summary = FixtureSummary()
        var finished: [Int: [FixtureFileResult]] = [:]
        var reported = 0
        await withTaskGroup(of: (Int, [FixtureFileResult]).self) { group in
            var started = 0
            func startNext() {
                guard started < folders.count else { return }
                let index = started, folder = folders[index]
                group.addTask { (index, await runFiles(folder)) }
                started += 1
            }
            for _ in 0..<parallelFolders { startNext() }
            while let (index, results) = await group.next() {
                finished[index] = results
                while let done = finished.removeValue(forKey: reported) {
                    for result in done {
                        report(result)
                        summary.count(result.state)
                    }
                    reported += 1
                }
                startNext()
            }
        }
        return summary
    }

    /// Runs the fixtures of one folder through one host, in file-name order, and returns each
    /// file's result in that order.
    ///
    /// Fixtures the filter leaves out have no result, but those before a kept one still run,
    /// so that it sees the store and categories it sees in a run of the whole folder.
    public func runFiles(_ folder: FixtureFolder) async -> [FixtureFileResult] {
        let loaded = folder.files.map { file in (file, Result { () throws(FixtureError) in try Fixture(contentsOf: file) }) }
        let lastKept = loaded.lastIndex { _, fixture in (try? fixture.get()).map(keeps) ?? false }
        var configuration = self.configuration
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-test-\(UUID().uuidString)", isDirectory: true)
        configuration.attachmentDirectory = scratch
        defer { try? FileManager.default.removeItem(at: scratch) }
        let host = ScriptHost(configuration: configuration)
        var results: [FixtureFileResult] = []
        func malformed(_ file: URL, _ error: FixtureError) -> FixtureFileResult {
            FixtureFileResult(file: file, report: "ERROR \(error.description)", state: .malformed)
        }
        for (index, (file, loading)) in loaded.enumerated() {
            let fixture: Fixture
            switch loading {
            case .failure(let error):
                results.append(malformed(file, error))
                continue
            case .success(let read):
                fixture = read
            }
            guard let lastKept, index <= lastKept else { continue }
            let kept = keeps(fixture)
            do {
                let outcome = try await run(fixture, on: host)
                if kept { results.append(FixtureFileResult(file: file, report: outcome.report(verbose: verbose), state: outcome.passed ? .passed : .failed)) }
            } catch {
                if kept { results.append(malformed(file, error)) }
            }
        }
        return results
    }

    /// Whether the filter keeps `fixture`: its name or file path contains the filter's text.
    func keeps(_ fixture: Fixture) -> Bool {
        guard let filter else { return true }
        return fixture.name.contains(filter) || fixture.file.path.contains(filter)
    }

    /// Runs one fixture through `host` and matches its result.
    ///
    /// A refused payload fails a fixture that does not expect an `error`, even one whose
    /// `expect` names nothing else, and the refusal is what it reports.
    public func run(_ fixture: Fixture, on host: ScriptHost) async throws(FixtureError) -> FixtureOutcome {
        let answer = try await deliver(fixture, on: host)
        let result = answer.json
        var mismatches = SubsetMatcher.mismatches(expected: fixture.expect, actual: result)
        if let refusal = result.objectValue?["error"], fixture.expect.objectValue?["error"] == nil {
            mismatches.append(Mismatch(path: "error", expected: "none", actual: (try? refusal.jsonString()) ?? "?"))
        }
        return FixtureOutcome(fixture: fixture, mismatches: mismatches, result: result, delivered: answer.result)
    }

    /// The result a fixture's request gets: the result object, or `{"error": why}` when its
    /// payload is refused.
    public func resultJSON(_ fixture: Fixture, on host: ScriptHost) async throws(FixtureError) -> JSONValue {
        try await deliver(fixture, on: host).json
    }

    /// What a fixture's request got: its result, or why its payload was refused.
    private enum Answer {
        case delivered(DeliveryResult)
        case refused(String)

        var result: DeliveryResult? {
            if case .delivered(let result) = self { return result }
            return nil
        }

        /// The result object, or `{"error": why}`.
        var json: JSONValue {
            switch self {
            case .delivered(let result): result.jsonValue
            case .refused(let message): .object(["error": .string(message)])
            }
        }
    }

    private func deliver(_ fixture: Fixture, on host: ScriptHost) async throws(FixtureError) -> Answer {
        let payload: Payload
        do {
            payload = try fixture.loadPayload()
        } catch let refusal as PayloadError {
            return .refused(refusal.message)
        } catch let error as FixtureError {
            throw error
        } catch {
            throw FixtureError(path: fixture.file.path, problem: "\(error)")
        }
        let script: Script
        do {
            script = try Script(contentsOf: fixture.script)
        } catch {
            throw FixtureError(path: fixture.file.path, problem: "script \(fixture.script.path) cannot be read; fix 'script'")
        }
        for (url, answer) in fixture.media.sorted(by: { $0.key < $1.key }) {
            if let file = answer.file, !FileManager.default.isReadableFile(atPath: file.path) {
                throw FixtureError(path: fixture.file.path, problem: "media file \(file.path) for \(url) cannot be read; fix 'media'")
            }
        }
        var request = NotificationRequest(
            payload: payload, app: fixture.app, identifier: fixture.identifier, locales: fixture.locales, limits: fixture.limits,
            categories: fixture.categories, keys: fixture.keys, allowPostHosts: fixture.allowPost, expiry: fixture.expiry)
        request.allowHTTPHosts = fixture.allowHTTPHosts
        request.strings = fixture.strings
        let answers = FixtureAnswers(media: fixture.media, http: fixture.http).requestAnswers
        if let installed { return .delivered(await host.deliver(request, from: installed, baseline: .script(script), answers: answers)) }
        return .delivered(await host.deliver(request, script: .script(script), answers: answers))
    }
}

extension Fixture {
    /// The payload: parsed and checked. Throws a `PayloadError` when it is refused, a
    /// ``FixtureError`` when its file cannot be read.
    func loadPayload() throws -> Payload {
        switch payload {
        case .inline(let value):
            return try Payload(value: value)
        case .file(let url):
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw FixtureError(path: file.path, problem: "payload file \(url.path) cannot be read; fix 'payload'")
            }
            return try PayloadFile.payload(data, path: url.path)
        }
    }
}
