import Dispatch
import Foundation
import LuaSandbox
import MediaDownloader
import NotificationModel
import Synchronization

/// `download(url [, options])` and `downloadAll(urls [, options])`: streaming downloads into
/// the request's folder, typed from their bytes, cancelled when the deadline comes; and what
/// `content:attach(file [, options])` does with such a file
/// (``attach(_:file:options:)``).
struct DownloadModule: ScriptModule {
    unowned let host: ModuleHost

    /// The request's folder for downloads and attachments, in the host's folder of them.
    func folder(of run: RequestRun) -> URL { run.attachmentDirectory(under: host.services.configuration.attachmentDirectory) }

    func install() {
        host.function("download", in: nil) { binding, call in
            Arguments.text(call, 0, "download").then { url in
                let options: DownloadOptions
                switch Self.downloadOptions(call[1], function: "download") {
                case .success(let o): options = o
                case .failure(let f): return .error(f.message)
                }
                let outcome = blockingDownload(binding, count: 1) { downloader, directory, deadline in
                    [await Self.capture { () throws(DownloadError) in
                        try await downloader.download(url, into: directory, options: options, deadline: deadline)
                    }]
                }
                guard let results = outcome else { return .kill(.time) }
                switch results[0] {
                case .success(let file): return .values([Self.fileTable(file, run: binding.run)])
                case .failure(let error): return .values([.nil, .text(error.message)])
                }
            }
        }
        host.function("downloadAll", in: nil) { binding, call in
            guard let urls = Arguments.strings(call[0]) else {
                return .error("bad argument #1 to 'downloadAll' (list of URL strings expected, got \(Arguments.describe(call[0])))")
            }
            let options: DownloadOptions
            switch Self.downloadOptions(call[1], function: "downloadAll") {
            case .success(let o): options = o
            case .failure(let f): return .error(f.message)
            }
            let outcome = blockingDownload(binding, count: urls.count) { downloader, directory, deadline in
                await downloader.downloadAll(urls, into: directory, options: options, deadline: deadline)
            }
            guard let results = outcome else { return .kill(.time) }
            var files: [LuaTablePair<LuaInput>] = []
            var errors: [LuaTablePair<LuaInput>] = []
            for (i, result) in results.enumerated() {
                switch result {
                case .success(let file): files.append(LuaTablePair(key: .integer(Int64(i + 1)), value: Self.fileTable(file, run: binding.run)))
                case .failure(let error): errors.append(LuaTablePair(key: .integer(Int64(i + 1)), value: .text(error.message)))
                }
            }
            return .values([.table(LuaTable(pairs: files)), .table(LuaTable(pairs: errors))])
        }
    }

    /// Runs downloads on the cooperative pool while this Lua thread waits. Returns nil when the
    /// request's deadline came while they were in flight (the script is then stopped where it
    /// is). When no download may start — the deadline has come, or `bestAttempt` is running —
    /// every URL fails with `deadline` at once; after delivery, with `not allowed`.
    private func blockingDownload(
        _ binding: Binding, count: Int,
        _ body: @escaping @Sendable (MediaDownloader, URL, ContinuousClock.Instant) async -> [Result<DownloadedFile, DownloadError>]
    ) -> [Result<DownloadedFile, DownloadError>]? {
        let run = binding.run
        if binding.phase == .afterDelivery {
            return Array(repeating: .failure(DownloadError(.notAllowed, "no download may start after delivery (the content was handed over)")), count: count)
        }
        let task = Mutex<Task<Void, Never>?>(nil)
        guard let id = run.beginDownload(cancel: { task.withLock { $0?.cancel() } }) else {
            return Array(repeating: .failure(DownloadError(.deadline, "no download may start after the deadline or in bestAttempt")), count: count)
        }
        let downloader = host.services.downloader(answers: run.answers, allowHTTPHosts: run.allowHTTPHosts)
        let directory = folder(of: run)
        let deadline = run.deadline.continuousInstant
        let done = DispatchSemaphore(value: 0)
        let box = Mutex<[Result<DownloadedFile, DownloadError>]?>(nil)
        let started = Task {
            let results = await body(downloader, directory, deadline)
            box.withLock { $0 = results }
            done.signal()
        }
        task.withLock { $0 = started }
        // A cancel that came between beginDownload and the task's start reaches it here.
        if run.isCancelled { task.withLock { $0?.cancel() } }
        done.wait()
        run.endDownload(id)
        if run.isCancelled || run.deadline.hasPassed { return nil }
        return box.withLock { $0 }
    }

    private static func capture(_ body: () async throws(DownloadError) -> DownloadedFile) async -> Result<DownloadedFile, DownloadError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    /// The `file` table scripts get: `{path=, url=, type=, mime=, size=}`. Warnings about a
    /// Content-Type or URL extension that disagree with the bytes go to the log.
    private static func fileTable(_ file: DownloadedFile, run: RequestRun) -> LuaInput {
        for warning in file.warnings { run.log(.warn, warning, host: true) }
        var fields: [(String, LuaInput)] = [
            ("path", .text(file.path)), ("url", .text(file.url)), ("mime", .text(file.mime)), ("size", .integer(Int64(file.size))),
        ]
        if let type = file.type { fields.append(("type", .text(type))) }
        return .table(LuaTable(fields: fields))
    }

    /// The longest `timeout` a download keeps as its own (a day); a longer one is left to the
    /// request's deadline, which is far shorter.
    static let maximumTimeoutSeconds = 86_400.0

    private static func downloadOptions(_ value: LuaOutput, function: String) -> Result<DownloadOptions, HostFailure> {
        var options = DownloadOptions()
        var maxBytesGiven = false
        guard case .table(let t) = value else {
            if value.isNil { return .success(options) }
            return .failure(HostFailure("bad argument #2 to '\(function)' (options table expected, got \(value.typeName))"))
        }
        let positional = t.isArray ? t.elements.first : t.pairs.first { $0.key.stringValue == nil }?.value
        if let entry = positional {
            let shown = entry.stringValue.map { "\"\($0)\"" } ?? entry.typeName
            return .failure(HostFailure("\(function): options are named, not positional: got the positional entry \(shown); write {kinds = {\"image\"}}, {timeout = 5} or {maxBytes = 1000000}"))
        }
        for pair in t.pairs {
            switch pair.key.stringValue {
            case "timeout":
                guard let seconds = pair.value.numberValue, seconds > 0 else {
                    return .failure(HostFailure("\(function): timeout must be a number of seconds > 0"))
                }
                // A timeout past any deadline (`math.huge` included) is no limit of its own:
                // the request's deadline still ends the download.
                options.timeout = seconds < maximumTimeoutSeconds ? .nanoseconds(Int64(seconds * 1e9)) : nil
            case "maxBytes":
                guard let n = pair.value.integerValue, n > 0 else {
                    return .failure(HostFailure("\(function): maxBytes must be an integer > 0"))
                }
                options.maxBytes = Int(n)
                maxBytesGiven = true
            case "kinds":
                guard let names = Arguments.strings(pair.value) else {
                    return .failure(HostFailure("\(function): kinds must be a list such as {\"image\", \"video\"}"))
                }
                var kinds: Set<AttachmentKind> = []
                for name in names {
                    guard let kind = AttachmentKind(rawValue: name) else {
                        return .failure(HostFailure("\(function): unknown kind '\(name)'; kinds are image, audio, video"))
                    }
                    kinds.insert(kind)
                }
                options.kinds = kinds
            default:
                return .failure(HostFailure("\(function): unknown option '\(pair.key.stringValue ?? "?")'; options are timeout, maxBytes, kinds"))
            }
        }
        // `kinds` alone caps the size at the largest attachment maximum among them, checked
        // against Content-Length and again while the body streams.
        if !maxBytesGiven, let kinds = options.kinds, !kinds.isEmpty {
            options.maxBytes = AttachmentKind.largestMaximumSize(of: kinds)
        }
        return .success(options)
    }
}
