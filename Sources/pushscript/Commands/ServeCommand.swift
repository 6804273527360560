import Foundation
import ScriptBundles
import ScriptHost
import Synchronization

/// `pushscript serve --scripts DIR`: a long-running host, JSON lines in, results out.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "a long-running host: JSON lines in, results out"
    static let description = """
        usage: pushscript serve --scripts DIR [options]

        Reads one request per line on standard input and writes one answer per line on standard
        output as soon as it is ready (--ordered: in input order). One app's requests run one
        at a time, in input order, as iOS runs a service extension; different apps' requests
        run at once, up to --concurrency of them, with up to --read-ahead lines (and 64 MiB)
        read ahead of the answers written. A request is a JSON object:
          {"id": 7, "app": "com.example.news", "payload": {"aps": {...}}, "locales": ["de-DE", "en"],
           "identifier": "6A3E…", "expireMs": 30000}
        "id" (any JSON value) is echoed; "locales" is optional (the device's preferred
        languages, else --locale's); "app" may be left out when --app names the default app;
        "identifier" (the apns-id, request.identifier; else a new UUID) and "expireMs" (the
        system's deadline in milliseconds, else --expire-ms's) are optional.
        The answer is the result object of 'pushscript run' on one line with "id" first, or
        {"id": ..., "error": "..."} for a line that is not a valid request (id null when the
        line cannot be read; a line over --max-line-bytes is answered so without being read
        whole), and serving goes on. Blank lines are skipped.

        The script for an app is DIR/<app>.lua, reloaded when the file changes: the next
        request runs the new version. A version that does not compile leaves the last good
        one in service and is reported on standard error. An app without a script gets its
        original content back with reason no-script. An app without a request for --idle-ms
        closes its Lua states (its store and categories stay).

        Stopping: end of input ends serving once every answer is written. SIGTERM, SIGINT and
        SIGHUP drain: reading stops, the requests read finish (each within its deadline), every
        answer is written, serve's own files are removed, standard error says how many were
        answered, exit status 0; a second such signal ends at once and says what it dropped.
        A closed standard output (a failed write) ends serving the same way.

        Operators: a start-up line on standard error (version, scripts, limits, isolation,
        concurrency); --log-format json makes standard error one JSON object per event, each
        answer among them (id, app, outcome, reason, ms); --metrics FILE keeps the Prometheus
        text format in FILE, rewritten whole every \(ServeHousekeeping.metricsInterval) s and at exit.

        Attachment files: with --attachments DIR they go into DIR and are yours to keep.
        Without it serve keeps them in a folder of its own in the temporary directory for the
        \(AttachmentRetention.maximumResults) most recent results that have any, \(AttachmentRetention.maximumBytes >> 20) MiB at most together (the oldest
        are removed first), and removes that folder when it ends, however it ends.
        """
    static let scripts = Option("--scripts", "DIR", help: "the folder of <bundle-id>.lua scripts (required)")
    static let concurrency = PositiveOption("--concurrency", "N", default: 16, help: "requests of different apps that run at once")
    static let readAhead = PositiveOption("--read-ahead", "N", default: 1024, help: "lines read ahead of the answers written")
    static let ordered = Option.flag("--ordered", help: "write the answers in input order")
    static let maxLineBytes = PositiveOption("--max-line-bytes", "N", default: 1 << 20, help: "the longest line read; a longer one is answered with an error")
    static let logFormat = Option("--log-format", "text|json", default: "text", help: "what standard error says: lines for people, or one JSON object per event")
    static let metrics = Option("--metrics", "FILE", help: "keep counters in FILE (Prometheus text format), rewritten every few seconds")
    static let idleMs = PositiveOption("--idle-ms", "N", default: 60_000, help: "an app without a request this long closes its Lua states")
    static let isolation = Option(
        "--isolation", "thread|process", default: "thread",
        help: "where scripts run: in this process, or in worker processes", "(killed and replaced when a script is stuck)")
    static let options = [
        scripts, concurrency.option, readAhead.option, ordered, maxLineBytes.option, logFormat, metrics, idleMs.option, isolation,
        AttachmentFolder.option,
    ] + HostOptions.options(app: "the app of requests that name none")

    /// How many bytes of lines may be read ahead of the answers written.
    static let readAheadBytes = 64 << 20

    /// The version the start-up line names: the host's (``ScriptHost/hostVersion``), as bundles
    /// name it.
    static let version = "host version \(ScriptHost.hostVersion)"

    /// Set to 1 in a worker process's environment: it serves its parent (`--isolation process`).
    static let workerVariable = "PUSHSCRIPT_SERVE_WORKER"

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        if let extra = a.positionals.first {
            throw UsageError("pushscript serve: unexpected argument '\(extra)'; give the scripts folder with --scripts DIR")
        }
        guard let path = a.value(scripts) else {
            throw UsageError("pushscript serve: --scripts DIR is missing; give the folder that holds the <bundle-id>.lua scripts")
        }
        let folder = try FolderArgument.existing(path, scripts, command: name, give: "the folder that holds the <bundle-id>.lua scripts")
        let lanes = try a.positive(concurrency)
        let lineCap = try a.positive(maxLineBytes)
        let idle = try a.positive(idleMs)
        let window = try a.positive(readAhead)
        let format = a.value(logFormat) ?? "text"
        guard let logFormat = ServeLog.Format(rawValue: format) else {
            throw UsageError("pushscript serve: --log-format takes text or json, not '\(format)'")
        }
        let metricsPath = a.value(metrics)
        if let metricsPath {
            let folder = URL(fileURLWithPath: metricsPath).deletingLastPathComponent().path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
                  FileManager.default.isWritableFile(atPath: folder)
            else {
                throw UsageError("pushscript serve: --metrics \(metricsPath): its folder \(folder) does not exist or is not writable; give a file in a writable folder")
            }
        }
        let isWorker = ProcessInfo.processInfo.environment[workerVariable] == "1"
        let isolationName = a.value(isolation) ?? "thread"
        guard isolationName == "thread" || isolationName == "process" else {
            throw UsageError("pushscript serve: --isolation takes thread or process, not '\(isolationName)'")
        }
        var configuration = try HostOptions.configuration(a, command: name)
        let attachments = try AttachmentFolder(a, command: name, removedOnSignals: false)
        defer { attachments.remove() }
        configuration.attachmentDirectory = attachments.url
        let log = ServeLog(format: logFormat)
        // Set below once the intake exists: a worker stops reading when a Lua thread is stuck.
        let stopWorker = StopHandle()
        let privateState: URL?
        let backend: any ServeBackend
        if isolationName == "process" && !isWorker {
            privateState = configuration.stateDirectory == nil
                ? FileManager.default.temporaryDirectory.appendingPathComponent("pushscript-serve-state-\(UUID().uuidString)", isDirectory: true) : nil
            if let privateState { try? FileManager.default.createDirectory(at: privateState, withIntermediateDirectories: true) }
            let arguments = workerArguments(attachments: attachments.url, state: privateState, lineCap: lineCap)
            let environment = ProcessInfo.processInfo.environment.merging([workerVariable: "1"]) { $1 }
            let executable = Bundle.main.executablePath ?? CommandLine.arguments[0]
            do {
                backend = try ProcessBackend(
                    count: min(lanes, max(1, ProcessInfo.processInfo.activeProcessorCount)), limits: configuration.limits, log: log
                ) { try WorkerProcess(executable: executable, arguments: arguments, environment: environment) }
            } catch let error as WorkerError {
                throw UsageError("pushscript serve: \(error.message); try --isolation thread")
            }
        } else {
            privateState = nil
            let retention = attachments.isOwned && !isWorker ? AttachmentRetention() : nil
            let host = ScriptHost(configuration: configuration, answers: try HostOptions.answers(a, command: name).requestAnswers)
            let scriptFolder = ScriptDirectory(
                folder, memoryLimit: configuration.limits.memoryBytes, cpuTime: configuration.limits.cpuTime) { log.script($0) }
            // With --state DIR --trust KEY.pub: installed bundle versions, the folder's scripts as
            // their baseline.
            let installed = try HostOptions.installedScripts(a, command: name, baseline: .directory(scriptFolder)) { log.installed($0) }
            backend = ThreadBackend(
                host: host, scripts: scriptFolder, installed: installed, retention: retention, idleRelease: .milliseconds(idle)
            ) {
                // A worker whose Lua thread is stuck ends once its other requests are answered:
                // its parent replaces it, and the stuck thread's CPU and memory go with it.
                if isWorker, host.stuckLuaJobCount > 0 { stopWorker.run() }
            }
        }
        defer { if let privateState { try? FileManager.default.removeItem(at: privateState) } }
        if isWorker {
            return await runWorker(a, backend: backend, log: log, lanes: lanes, window: window, stop: stopWorker)
        }

        let queues = AppQueues(lanes: lanes)
        let intake = ServeIntake(
            source: LineSource(maximumLineBytes: lineCap), queues: queues, defaultApp: a.value(HostOptions.app),
            maximumLineBytes: lineCap, maximumLines: window, maximumBytes: readAheadBytes)
        let output = AnswerOutput(ordered: a.flag(ordered), released: { intake.answered(lines: $0, bytes: $1) }, closed: { intake.stop(.outputClosed) })
        let metricsFile = ServeMetrics()
        let housekeeping = ServeHousekeeping { writeMetrics in
            backend.tick()
            guard writeMetrics, let metricsPath else { return }
            let held = backend.held
            let text = metricsFile.render(.init(luaThreads: held.luaThreads, workers: held.workers, pendingLines: intake.acceptedCount - output.writtenCount - output.droppedCount))
            if !ServeMetrics.writeAtomically(text, to: metricsPath) {
                log.event("metrics-failed", ["file": .string(metricsPath)], text: "serve: --metrics \(metricsPath) could not be written; check that its folder exists and is writable")
            }
        }
        let signals = ServeSignals(
            first: { number in
                let signalName = ServeSignals.name(number)
                log.event("stopping", ["signal": .string(signalName)],
                    text: "serve: \(signalName): reading stopped; answering the requests read (a second signal ends at once)")
                intake.stop(.signal(number))
            },
            second: { number in
                output.close()
                let dropped = intake.acceptedCount - output.writtenCount
                let signalName = ServeSignals.name(number)
                log.event("stopped-at-once", ["signal": .string(signalName), "answered": .integer(Int64(output.writtenCount)), "dropped": .integer(Int64(dropped))],
                    text: "serve: second \(signalName): ending at once; \(dropped) request\(dropped == 1 ? " read was" : "s read were") not answered")
                backend.abort()
                attachments.remove()
                if let privateState { try? FileManager.default.removeItem(at: privateState) }
                if let metricsPath { try? FileManager.default.removeItem(atPath: metricsPath + ".tmp-\(getpid())") }
                _exit(128 + number)
            })
        // Said once the signals are answered: a process manager may stop serve from then on.
        let limits = configuration.limits
        log.event("start", [
            "version": .string(version), "scripts": .string(path), "cpuMs": .integer(Int64(limits.cpuTime / .milliseconds(1))),
            "memoryBytes": .integer(Int64(limits.memoryBytes)), "timeMs": .integer(Int64(limits.time / .milliseconds(1))),
            "isolation": .string(isolationName), "concurrency": .integer(Int64(lanes)), "ordered": .bool(a.flag(ordered)),
        ], text: "serve: pushscript \(version), scripts \(path), limits cpu \(Int(limits.cpuTime / .milliseconds(1))) ms / memory \(limits.memoryBytes >> 20) MiB / time \(Int(limits.time / .milliseconds(1))) ms, isolation \(isolationName), concurrency \(lanes)\(a.flag(ordered) ? ", ordered" : "")")

        let loop = ServeLoop(intake: intake, queues: queues, output: output, backend: backend, metrics: metricsFile, log: log, defaultApp: a.value(HostOptions.app),
            defaultExpiry: try HostOptions.expiry(a, command: name))
        await loop.run(lanes: lanes)
        housekeeping.finish()
        backend.shutdown()
        withExtendedLifetime(signals) {}
        let answered = output.writtenCount
        let dropped = output.droppedCount
        switch intake.stopReason {
        case .signal(let number):
            log.event("stopped", ["reason": .string(ServeSignals.name(number)), "answered": .integer(Int64(answered)), "dropped": .integer(Int64(dropped))],
                text: "serve: stopped on \(ServeSignals.name(number)): \(answered) request\(answered == 1 ? "" : "s") answered")
        case .outputClosed:
            log.event("stopped", ["reason": .string("output-closed"), "answered": .integer(Int64(answered)), "dropped": .integer(Int64(dropped))],
                text: "serve: standard output was closed: \(answered) answer\(answered == 1 ? "" : "s") written, \(dropped) not written")
        case .endOfInput, nil:
            log.event("stopped", ["reason": .string("end-of-input"), "answered": .integer(Int64(answered)), "dropped": .integer(Int64(dropped))], text: nil)
        }
        return .success
    }

    /// A worker's serving: tagged lines from its parent, answers back to it, no start-up line
    /// and no signals of its own (the parent stops it by closing its input, or kills it).
    private static func runWorker(
        _ a: ParsedArguments, backend: any ServeBackend, log: ServeLog, lanes: Int, window: Int, stop: StopHandle
    ) async -> ExitStatus {
        for number in ServeSignals.stopping { signal(number, SIG_IGN) }
        signal(SIGPIPE, SIG_IGN)
        let queues = AppQueues(lanes: lanes)
        let cap = (try? a.positive(maxLineBytes)) ?? maxLineBytes.defaultValue
        let intake = ServeIntake(
            source: LineSource(maximumLineBytes: cap), queues: queues, defaultApp: a.value(HostOptions.app),
            maximumLineBytes: cap, maximumLines: window, maximumBytes: readAheadBytes, tagged: true)
        stop.set { intake.stop(.endOfInput) }
        let output = AnswerOutput(ordered: false, released: { intake.answered(lines: $0, bytes: $1) }, closed: { intake.stop(.outputClosed) })
        let housekeeping = ServeHousekeeping { _ in backend.tick() }
        // The parent logs each answer it writes; a worker's log says only what the parent cannot
        // see (its scripts and bundles).
        let loop = ServeLoop(intake: intake, queues: queues, output: output, backend: backend, metrics: ServeMetrics(), log: nil, defaultApp: a.value(HostOptions.app),
            // checked by the parent, which passed the option on
            defaultExpiry: (try? HostOptions.expiry(a, command: name)) ?? nil)
        await loop.run(lanes: lanes)
        housekeeping.finish()
        // A stuck Lua thread ends with the process: exit at once, without waiting for it.
        _exit(0)
    }

    /// The arguments of a worker process: this command's own, less what only the parent does
    /// (metrics, isolation, the line cap, the attachment folder), with the parent's folders.
    private static func workerArguments(attachments: URL, state: URL?, lineCap: Int) -> [String] {
        let parentOnly: Set<String> = [metrics.name, isolation.name, maxLineBytes.option.name, AttachmentFolder.option.name]
        var kept: [String] = []
        var arguments = CommandLine.arguments.dropFirst()[...]
        while let argument = arguments.popFirst() {
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if parentOnly.contains(name) {
                if !argument.contains("=") { _ = arguments.popFirst() }
                continue
            }
            kept.append(argument)
        }
        kept += [isolation.name, "thread", AttachmentFolder.option.name, attachments.path, maxLineBytes.option.name, String(lineCap + 32)]
        if let state { kept += [HostOptions.state.name, state.path] }
        return kept
    }
}

/// What stops a worker's reading, set once its intake exists.
final class StopHandle: Sendable {
    private let action = Mutex<(@Sendable () -> Void)?>(nil)

    func set(_ stop: @escaping @Sendable () -> Void) { action.withLock { $0 = stop } }

    func run() { action.withLock { $0 }?() }
}
