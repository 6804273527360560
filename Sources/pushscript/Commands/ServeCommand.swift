import Foundation
import ScriptHost

/// `pushscript serve --scripts DIR`: a long-running host, JSON lines in, results out.
enum ServeCommand: Command {
    static let name = "serve"
    static let summary = "a long-running host: JSON lines in, results out"
    static let description = """
        usage: pushscript serve --scripts DIR [options]

        Reads one request per line on standard input and writes one answer per line on standard
        output, in input order. One app's requests run one at a time, in input order, as iOS
        runs a service extension; different apps' requests run at once, up to --concurrency
        requests read ahead of the answers written. A request is a JSON object:
          {"id": 7, "app": "com.example.news", "payload": {"aps": {...}}, "locales": ["de-DE", "en"]}
        "id" (any JSON value) is echoed; "locales" is optional (the device's preferred
        languages, else --locale's); "app" may be left out when --app names the default app.
        The answer is the result object of 'pushscript run' on one line with "id" first, or
        {"id": ..., "error": "..."} for a line that is not a valid request (id null when the
        line cannot be read), and serving goes on. Blank lines are skipped.

        The script for an app is DIR/<app>.lua, reloaded when the file changes: the next
        request runs the new version. A version that does not compile leaves the last good
        one in service and is reported on standard error. An app without a script gets its
        original content back with reason no-script. End of input ends serving once every
        answer is written; exit status 0.

        Attachment files: with --attachments DIR they go into DIR and are yours to keep.
        Without it serve keeps them in a folder of its own in the temporary directory for the
        \(AttachmentRetention.maximumResults) most recent results that have any, \(AttachmentRetention.maximumBytes >> 20) MiB at most together (the oldest
        are removed first), and removes that folder when it ends: at the end of input, on
        SIGINT and on SIGTERM.
        """
    static let scripts = Option("--scripts", "DIR", help: "the folder of <bundle-id>.lua scripts (required)")
    static let concurrency = PositiveOption("--concurrency", "N", default: 16, help: "requests read ahead of the answers")
    static let options = [scripts, concurrency.option, AttachmentFolder.option] + HostOptions.options(app: "the app of requests that name none")

    static func run(_ a: ParsedArguments) async throws -> ExitStatus {
        if let extra = a.positionals.first {
            throw UsageError("pushscript serve: unexpected argument '\(extra)'; give the scripts folder with --scripts DIR")
        }
        guard let path = a.value(scripts) else {
            throw UsageError("pushscript serve: --scripts DIR is missing; give the folder that holds the <bundle-id>.lua scripts")
        }
        let folder = try FolderArgument.existing(path, scripts, command: name, give: "the folder that holds the <bundle-id>.lua scripts")
        let window = try a.positive(concurrency)
        var configuration = try HostOptions.configuration(a, command: name)
        let attachments = try AttachmentFolder(a, command: name)
        defer { attachments.remove() }
        configuration.attachmentDirectory = attachments.url
        let retention = attachments.isOwned ? AttachmentRetention() : nil
        let host = ScriptHost(configuration: configuration)
        let scripts = ScriptDirectory(folder, memoryLimit: configuration.limits.memoryBytes) { event in
            if let line = message(for: event) { printError(line) }
        }
        let defaultApp = a.value(HostOptions.app)
        let defaultExpiry = try HostOptions.expiry(a, command: name)
        let input = LineSource()
        let slots = ReadAheadWindow(size: window)
        let output = OrderedOutput(written: { slots.release() })
        // Each request's task goes on, after its delivery, on the thread that ran its script;
        // while input is ready, the next line is read there too.
        let order = AppOrder(executor: host.deliveryExecutor)
        var index = 0
        await withTaskExecutorPreference(host.deliveryExecutor) {
            while true {
                await slots.take()
                guard let line = await input.next() else {
                    slots.release()
                    break
                }
                if line.allSatisfy(\.isWhitespace) {
                    slots.release()
                    continue
                }
                let slot = index
                index += 1
                switch ServeLine.parse(line, defaultApp: defaultApp, defaultExpiry: defaultExpiry) {
                case .invalid(let id, let message):
                    output.put(slot, ServeLine.errorLine(id: id, message: message))
                case .request(let id, let request):
                    order.enqueue(app: request.resolvedApp ?? "") {
                        let result = await host.deliver(request, from: scripts)
                        // Kept before it is written: a written answer's files are counted.
                        retention?.keep(result)
                        output.put(slot, bytes: result.jsonLineBytes(id: id))
                    }
                }
            }
            // Every slot back: every answer written.
            for _ in 0..<window { await slots.take() }
        }
        return .success
    }

    /// The line on standard error for what the scripts folder reports, if any.
    static func message(for event: ScriptDirectory.Event) -> String? {
        switch event {
        case .rejected(_, let message, keepingLastGood: true):
            return "serve: \(oneLine(message)) — keeping the last good version"
        case .rejected(_, let message, keepingLastGood: false):
            return "serve: \(oneLine(message)) — no good version yet; its requests get the original content (reason load) until the file is fixed"
        case .loaded(_, let file, afterFailure: true):
            return "serve: \(file) compiles again; the new version is in service"
        case .loaded(_, _, afterFailure: false):
            return nil
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
