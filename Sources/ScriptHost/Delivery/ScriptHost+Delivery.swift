import Foundation
import LuaSandbox
import NotificationModel

extension ScriptHost {
    /// How long the host waits past the deadline for a script to notice it before it gives the
    /// state up as stuck: 10 ms under the 50 ms past the deadline by which the answer is due,
    /// for handing the result over.
    static let stuckGrace = Duration.milliseconds(40)

    /// Delivers one request: runs the app's script and returns the whole result, after
    /// `afterDelivery` (if the script defines one) ended. Always returns, exactly once; the
    /// content is settled by the request's deadline plus `bestAttempt`'s time.
    ///
    /// Cancelling the task that awaits it says the system's time ran out, as
    /// ``DeliverySession/expire()`` does: the script is stopped and the best attempt returned.
    /// ``start(_:script:)`` gives the content as soon as it is handed over instead.
    public func deliver(_ request: NotificationRequest, script lookup: ScriptLookup) async -> DeliveryResult {
        await deliver(request, .lookup(lookup), answers: nil)
    }

    /// ``deliver(_:script:)`` with `answers` for the request's downloads and posts ahead of the
    /// host's own and the network (a fixture's `media` and `http`, `--http-map`).
    package func deliver(_ request: NotificationRequest, script lookup: ScriptLookup, answers: RequestAnswers?) async -> DeliveryResult {
        await deliver(request, .lookup(lookup), answers: answers)
    }

    /// Runs a request in the awaiting task, expiring it when that task is cancelled.
    nonisolated(nonsending) func deliver(_ request: NotificationRequest, _ source: ScriptSource, answers: RequestAnswers?) async -> DeliveryResult {
        let session = makeSession(request, answers: answers)
        return await withTaskCancellationHandler {
            await perform(session, request, source)
            return await session.finished()
        } onCancel: {
            session.expire()
        }
    }

    /// A session for `request`, not started.
    func makeSession(_ request: NotificationRequest, answers: RequestAnswers? = nil) -> DeliverySession {
        DeliverySession(run: makeRun(request, answers: answers))
    }

    /// Runs the session's request to its end: finds its script, runs it as one job on one Lua
    /// thread — the chunk, `didReceive`, and `bestAttempt` when needed — and hands the content
    /// over; then runs `afterDelivery` as a second job in the same state when the script
    /// defines it, and finishes the session. ``DeliveryPlan`` decides what follows how the
    /// first job ended.
    nonisolated(nonsending) func perform(_ session: DeliverySession, _ request: NotificationRequest, _ source: ScriptSource) async {
        let run = session.run
        let runtime = runtime(for: run.app)
        runtime.categories.declare(request.categories)
        let lookup: ScriptLookup
        switch source {
        case .lookup(let given):
            lookup = given
        case .directory(let directory):
            switch await lookUp(request.resolvedApp, in: directory, for: run, arrivedAt: request.arrivedAt) {
            case .found(let found): lookup = found
            case .fallback(let reason): return session.finish(finish(run, reason, original: true))
            }
        }
        let (result, after) = await runScript(run, runtime, lookup)
        guard let after else { return session.finish(result) }
        session.deliver(result)
        session.finish(await runAfterDelivery(run, after, delivered: result))
    }

    /// Runs the script's request job and returns what is delivered, with what `afterDelivery`
    /// runs in when it is to run.
    nonisolated(nonsending) private func runScript(_ run: RequestRun, _ runtime: AppRuntime, _ lookup: ScriptLookup) async -> (DeliveryResult, AfterDelivery?) {
        let script: Script
        switch lookup {
        case .missing:
            return (finish(run, .init(kind: .noScript, message: "no script for app \(run.app ?? "(none)")"), original: true), nil)
        case .failed(let message):
            return (finish(run, .init(kind: .load, message: message), original: true), nil)
        case .rejected(let rejected, let message):
            run.answered(by: rejected)
            return (finish(run, .init(kind: .load, message: message), original: true), nil)
        case .script(let found):
            script = found
        }
        run.answered(by: script)
        guard !services.executor.isHeldByStuckJobs else {
            return (finish(run, .init(kind: .time, message: Self.heldMessage(services.executor.pool)), original: true), nil)
        }
        let sandboxes = runtime.pool(services)
        let hosted: HostedSandbox
        do {
            hosted = try sandboxes.checkOut()
        } catch {
            return (finish(run, .init(kind: .load, message: error.message), original: true), nil)
        }
        let job = await services.executor.run(
            hosted.sandbox, deadline: run.deadline, grace: Self.stuckGrace, onDeadline: { run.deadlineCame() }, control: run.control
        ) { _, clock in hosted.runRequest(run, script: script, clock: clock) }
        switch job {
        case .finished(let outcome):
            let delivery = DeliveryPlan.afterJob(outcome.end)
            let result = finish(run, delivery.reason, original: delivery.original, cost: outcome.cost)
            if let session = outcome.afterDelivery {
                return (consume result, AfterDelivery(hosted: hosted, sandboxes: sandboxes, session: session, cost: outcome.cost))
            }
            sandboxes.checkIn(hosted)
            return (consume result, nil)
        case .notStarted:
            // It never ran: the sandbox is as it was.
            sandboxes.checkIn(hosted)
            let cause = run.timeCause
            return (finish(run, DeliveryResult.Reason.time(cause, cause == .expired ? .start : .queue), original: true), nil)
        case .abandoned:
            // The state is stuck where no check reaches (a host call that ignores cancellation).
            // What the thread used so far is its CPU time; the thread keeps it.
            let cost = PhaseCost(cpu: hosted.sandbox.runCPUTime ?? .zero, peak: hosted.sandbox.memoryPeak)
            // The stuck thread may write no more, whatever follows.
            let stage = run.takeOverFromStuckJob()
            let delivery = DeliveryPlan.afterAbandonment(at: stage, script: script.name, limits: run.limits, cause: run.timeCause)
            if let warning = delivery.warning { run.log(.warn, warning, host: true) }
            return (finish(run, delivery.reason, original: delivery.original, cost: cost), nil)
        }
    }

    /// Why a request falls back at once when every thread of `pool` is held by a stuck job.
    static func heldMessage(_ pool: LuaThreadPool) -> String {
        "the script was not run: all \(pool.maxThreads) Lua threads are held by scripts that did not stop at their deadlines"
    }

    func makeRun(_ request: NotificationRequest, answers: RequestAnswers? = nil) -> RequestRun {
        // Each field is read where it is kept: a copy of the whole configuration would retain
        // every one of its shared buffers, on every request, from every thread.
        var content = NotificationContent(payload: request.payload)
        let strings = request.strings ?? services.configuration.strings
        if !strings.isEmpty { content.applyLocalizedAlert(strings: strings) }
        let identifier = request.identifier ?? RequestIdentifier.make()
        let run = RequestRun(
            identifier: identifier, app: request.resolvedApp,
            locales: request.locales ?? services.configuration.locales,
            limits: request.limits ?? services.configuration.limits, content: content,
            keys: request.keys.isEmpty ? services.configuration.keys : services.configuration.keys.merging(request.keys) { $1 },
            answers: answers,
            allowHTTPHosts: request.httpHosts(host: services.configuration.allowHTTPHosts),
            allowPostHosts: request.postHosts(host: services.configuration.allowPostHosts),
            mediaDirectory: request.mediaDirectory ?? services.configuration.mediaDirectory,
            expiry: request.expiry,
            userInfoEncoding: request.userInfoEncoding)
        for warning in request.payload.warnings { run.log(.warn, warning, host: true) }
        return run
    }

    /// Seals the run and builds the result: completed without a reason, else a fallback; the
    /// content as it stands (or the original). The moment of delivery is now.
    func finish(
        _ run: RequestRun, _ reason: DeliveryResult.Reason?, original: Bool = false, cost: PhaseCost = PhaseCost()
    ) -> DeliveryResult {
        let outcome: DeliveryResult.Outcome = reason == nil ? .completed : .fallback
        let state = run.seal()
        run.cancelDownloads()
        let content = original ? run.original : state.content
        removeUnattachedFiles(run, keeping: content)
        let wallMs = (Deadline.now().nanoseconds - run.started.nanoseconds).millisecondsFromNanoseconds
        let deliveredMs = state.deliveredAt.map { ($0.nanoseconds - run.started.nanoseconds).millisecondsFromNanoseconds } ?? wallMs
        var result = DeliveryResult(
            outcome: outcome, reason: reason, suppressed: original ? false : state.suppressed, content: content,
            logs: state.log.final,
            stats: .init(cpuMs: cost.cpu.milliseconds, wallMs: wallMs, deliveredMs: deliveredMs, memoryPeakBytes: cost.peak),
            script: state.script)
        result.parts = state.parts
        return result
    }

    /// Removes the files of the request's folder that were not attached, and the folder when
    /// nothing in it was.
    private func removeUnattachedFiles(_ run: RequestRun, keeping content: NotificationContent) {
        guard let directory = run.usedAttachmentDirectory else { return }
        let fm = FileManager.default
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
