import Foundation
import LuaSandbox
import NotificationModel

extension ScriptHost {
    /// How long the host waits past the deadline for a script to notice it before it gives the
    /// state up as stuck.
    static let stuckGrace = Duration.milliseconds(50)

    /// Delivers one request: runs the app's script and returns what it delivered. Always
    /// returns, exactly once, by the request's deadline plus `bestAttempt`'s time.
    ///
    /// The request runs as one job on one Lua thread — the chunk, `didReceive`, and
    /// `bestAttempt` when needed — and is answered once; ``DeliveryPlan`` decides what follows
    /// how the job ended.
    public func deliver(_ request: NotificationRequest, script lookup: ScriptLookup) async -> DeliveryResult {
        let run = makeRun(request)
        let runtime = runtime(for: run.app)
        runtime.categories.declare(request.categories)
        let script: Script
        switch lookup {
        case .missing:
            return finish(run, .init(kind: .noScript, message: "no script for app \(run.app ?? "(none)")"), original: true)
        case .failed(let message):
            return finish(run, .init(kind: .load, message: message), original: true)
        case .script(let found):
            script = found
        }
        run.answered(by: script)
        guard script.source.count <= Script.maximumSize else {
            return finish(run, .init(kind: .load, message: ScriptCompiler.tooLargeMessage(script.name, bytes: script.source.count)), original: true)
        }
        let pool = services.executor.pool
        guard !pool.isHeldByStuckJobs else {
            return finish(run, .init(kind: .time, message: "the script was not run: all \(pool.maxThreads) Lua threads are held by scripts that did not stop at their deadlines"), original: true)
        }
        let sandboxes = runtime.pool(services)
        let hosted: HostedSandbox
        let job: JobOutcome<RequestOutcome>
        switch await runJob(run, in: sandboxes, { hosted, clock in hosted.runRequest(run, script: script, clock: clock) }) {
        case .ran(let sandbox, let outcome): (hosted, job) = (sandbox, outcome)
        case .noSandbox(let result): return result
        }
        switch job {
        case .finished(let outcome):
            let delivery = DeliveryPlan.afterJob(outcome.end)
            return finish(run, delivery.reason, original: delivery.original, cost: outcome.cost)
        case .abandoned:
            // The state is stuck where no check reaches (a host call that ignores cancellation).
            // What the thread used so far is its CPU time; the thread keeps it.
            var cost = PhaseCost(cpu: hosted.sandbox.runCPUTime ?? .zero, peak: hosted.sandbox.memoryPeak)
            // The stuck thread may write no more, whatever follows.
            let stage = run.takeOverFromStuckJob()
            switch DeliveryPlan.afterAbandonment(at: stage, script: script.name, limits: run.limits) {
            case .deliver(let reason, let original, let warning):
                if let warning { run.log(.warn, warning, host: true) }
                return finish(run, reason, original: original, cost: cost)
            case .bestAttemptInFreshState(let reason):
                run.log(.warn, "the script did not stop at the deadline; its Lua state was abandoned", host: true)
                if let fresh = try? sandboxes.checkOut() {
                    let best = await services.executor.run(
                        fresh.sandbox, deadline: .after(run.limits.bestAttemptTime), grace: Self.stuckGrace,
                        onDeadline: { run.cancelDownloads() }
                    ) { _ in fresh.runBestAttemptFresh(run, script: script, reason: reason) }
                    switch best {
                    case .finished(let spent): cost = cost + spent
                    case .abandoned: run.log(.warn, DeliveryPlan.afterFreshBestAttemptAbandoned(run.limits), host: true)
                    }
                    sandboxes.checkIn(fresh)
                } else {
                    run.log(.warn, "bestAttempt was not called: no fresh Lua state could be made for it", host: true)
                }
                return finish(run, reason, original: false, cost: cost)
            }
        }
    }

    func makeRun(_ request: NotificationRequest) -> RequestRun {
        let configuration = self.configuration
        var content = NotificationContent(payload: request.payload)
        let strings = request.strings ?? configuration.strings
        if !strings.isEmpty { content.applyLocalizedAlert(strings: strings) }
        let identifier = request.identifier ?? RequestIdentifier.make()
        let run = RequestRun(
            identifier: identifier, app: request.resolvedApp,
            locales: request.locales ?? configuration.locales,
            limits: request.limits ?? configuration.limits, content: content,
            keys: configuration.keys.merging(request.keys) { $1 },
            media: configuration.media.merging(request.media) { $1 },
            attachmentRoot: configuration.attachmentDirectory,
            allowHTTPHosts: request.httpHosts(host: configuration.allowHTTPHosts),
            http: request.http, allowPostHosts: request.postHosts(host: configuration.allowPostHosts),
            mediaDirectory: request.mediaDirectory ?? configuration.mediaDirectory)
        for warning in request.payload.warnings { run.log(.warn, warning, host: true) }
        return run
    }

    /// Seals the run and builds the result: completed without a reason, else a fallback; the
    /// content as it stands (or the original).
    func finish(
        _ run: RequestRun, _ reason: DeliveryResult.Reason?, original: Bool = false, cost: PhaseCost = PhaseCost()
    ) -> DeliveryResult {
        let outcome: DeliveryResult.Outcome = reason == nil ? .completed : .fallback
        let state = run.seal()
        run.cancelDownloads()
        let content = original ? run.original : state.content
        removeUnattachedFiles(run, keeping: content)
        return DeliveryResult(
            outcome: outcome, reason: reason, suppressed: original ? false : state.suppressed, content: content,
            logs: state.log.final,
            stats: .init(cpuMs: cost.cpu.milliseconds, wallMs: (Deadline.now().nanoseconds - run.started.nanoseconds).millisecondsFromNanoseconds, memoryPeakBytes: cost.peak),
            registeredCategories: state.registeredCategories, categories: state.categories, posts: state.posts,
            script: state.script)
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
