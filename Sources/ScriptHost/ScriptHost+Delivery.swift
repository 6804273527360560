import Foundation
import LuaSandbox
import NotificationModel

extension ScriptHost {
    /// How long the host waits past the deadline for a script to notice it before it gives the
    /// state up as stuck.
    static let stuckGrace = Duration.milliseconds(50)

    /// Delivers one request: runs the app's script and returns what it delivered. Always
    /// returns, exactly once, by the request's deadline plus `bestAttempt`'s time.
    public func deliver(_ request: NotificationRequest, script lookup: ScriptLookup) async -> DeliveryResult {
        let run = makeRun(request)
        let runtime = runtime(for: run.app)
        runtime.categories.declare(request.categories)
        let script: Script
        switch lookup {
        case .missing:
            return finish(run, .fallback, .init(kind: .noScript, message: "no script for app \(run.app ?? "(none)")"), original: true)
        case .failed(let message):
            return finish(run, .fallback, .init(kind: .load, message: message), original: true)
        case .script(let found):
            script = found
        }
        guard script.source.count <= Script.maximumSize else {
            return finish(run, .fallback, .init(kind: .load, message: "\(script.name) is \(script.source.count) bytes; a script may have at most \(Script.maximumSize) (1 MiB)"), original: true)
        }
        let pool = runtime.pool(services)
        let hosted: HostedSandbox
        do {
            hosted = try pool.checkOut()
        } catch {
            return finish(run, .fallback, .init(kind: .load, message: error.message), original: true)
        }
        run.activate(1, downloads: true)
        let main = await services.executor.run(
            hosted.sandbox, deadline: run.deadline, grace: Self.stuckGrace, onDeadline: { run.cancelDownloads() }
        ) { _ in hosted.runMain(run, script: script) }

        var cpu = Duration.zero
        var peak = 0
        func add(_ best: BestAttemptPhase?) {
            guard let best else { return }
            cpu += best.cpu
            peak = max(peak, best.peak)
        }
        switch main {
        case .finished(let phase):
            cpu = phase.cpu
            peak = phase.peak
            switch phase.end {
            case .completed:
                pool.checkIn(hosted)
                return finish(run, .completed, nil, cpu: cpu, peak: peak)
            case .load(let message):
                pool.checkIn(hosted)
                return finish(run, .fallback, .init(kind: .load, message: message), original: true, cpu: cpu, peak: peak)
            case .failed(let reason):
                if let session = phase.session {
                    add(await bestAttempt(run, on: hosted) { $0.runBestAttempt(run, session: session, reason: reason, token: 2) })
                }
                pool.checkIn(hosted)
                return finish(run, .fallback, reason, cpu: cpu, peak: peak)
            }
        case .abandoned:
            // The state is stuck where no check reaches (a host call that ignores cancellation).
            // It is given up; bestAttempt runs in a fresh state from the script's source.
            let reason = HostedSandbox.limitReason(.time, run.limits)
            run.log(.warn, "the script did not stop at the deadline; its Lua state was abandoned", host: true)
            run.activate(2, downloads: false) // the stuck thread may write no more, whatever follows
            if let fresh = try? pool.checkOut() {
                add(await bestAttempt(run, on: fresh) { $0.runBestAttemptFresh(run, script: script, reason: reason, token: 2) })
                pool.checkIn(fresh)
            }
            return finish(run, .fallback, reason, cpu: cpu, peak: peak)
        }
    }

    /// Runs `body` (a `bestAttempt` phase, which may write with token 2 and start no download)
    /// on `hosted` under `bestAttempt`'s own time. Nil, with a host warning, when it did not
    /// return: its state is then given up.
    private func bestAttempt(
        _ run: RequestRun, on hosted: HostedSandbox, _ body: @escaping @Sendable (HostedSandbox) -> BestAttemptPhase
    ) async -> BestAttemptPhase? {
        run.activate(2, downloads: false)
        let outcome = await services.executor.run(
            hosted.sandbox, deadline: .after(run.limits.bestAttemptTime), grace: Self.stuckGrace,
            onDeadline: { run.cancelDownloads() }
        ) { _ in body(hosted) }
        guard case .finished(let phase) = outcome else {
            run.log(.warn, "bestAttempt did not return within \(HostedSandbox.ms(run.limits.bestAttemptTime)) ms; the content is delivered as it stood", host: true)
            return nil
        }
        return phase
    }

    private func makeRun(_ request: NotificationRequest) -> RequestRun {
        let configuration = self.configuration
        var content = NotificationContent(payload: request.payload)
        if !configuration.strings.isEmpty { content.applyLocalizedAlert(strings: configuration.strings) }
        let identifier = request.identifier ?? UUID().uuidString
        let run = RequestRun(
            identifier: identifier, app: request.resolvedApp,
            locales: request.locales ?? configuration.locales,
            limits: request.limits ?? configuration.limits, content: content,
            keys: configuration.keys.merging(request.keys) { $1 },
            media: configuration.media.merging(request.media) { $1 },
            attachmentRoot: configuration.attachmentDirectory,
            http: request.http, allowPostHosts: configuration.allowPostHosts.union(request.allowPostHosts))
        for warning in request.payload.warnings { run.log(.warn, warning, host: true) }
        return run
    }

    /// Seals the run and builds the result: the content as it stands (or the original).
    private func finish(
        _ run: RequestRun, _ outcome: DeliveryResult.Outcome, _ reason: DeliveryResult.Reason?,
        original: Bool = false, cpu: Duration = .zero, peak: Int = 0
    ) -> DeliveryResult {
        let state = run.seal()
        run.cancelDownloads()
        let content = original ? run.original : state.content
        removeUnattachedFiles(run, keeping: content)
        return DeliveryResult(
            outcome: outcome, reason: reason, suppressed: original ? false : state.suppressed, content: content,
            logs: state.log.final,
            stats: .init(cpuMs: cpu.milliseconds, wallMs: (Deadline.now().nanoseconds - run.started.nanoseconds).millisecondsFromNanoseconds, memoryPeakBytes: peak),
            registeredCategories: state.registeredCategories, posts: state.posts)
    }

    /// Removes the files of the request's folder that were not attached, and the folder when
    /// nothing in it was.
    private func removeUnattachedFiles(_ run: RequestRun, keeping content: NotificationContent) {
        let fm = FileManager.default
        guard let directory = run.usedAttachmentDirectory else { return }
        guard let names = try? fm.contentsOfDirectory(atPath: directory.path) else { return }
        let kept = Set(content.attachments.map { URL(string: $0.url)?.standardizedFileURL.path ?? $0.url })
        for name in names {
            let path = directory.appendingPathComponent(name).standardizedFileURL.path
            if !kept.contains(path) { try? fm.removeItem(atPath: path) }
        }
        if (try? fm.contentsOfDirectory(atPath: directory.path))?.isEmpty ?? false {
            try? fm.removeItem(at: directory)
        }
    }
}

extension Int64 {
    var millisecondsFromNanoseconds: Double { Double(self) / 1_000_000 }
}
