import LuaSandbox

/// What `afterDelivery` runs in: the sandbox of the request's first job, still checked out,
/// and the request's Lua values in it.
struct AfterDelivery: Sendable {
    let hosted: HostedSandbox
    let sandboxes: SandboxPool<HostedSandbox>
    let session: Session
    /// What the first job cost.
    let cost: PhaseCost
}

extension ScriptHost {
    /// Runs `afterDelivery(request, content)` as a second job in the state of the first, once
    /// the content was handed over, and returns the whole result: `delivered` with the posts
    /// and log entries `afterDelivery` added and the time and CPU of the whole request. It
    /// runs under its own CPU budget and what is left of the request's deadline; an expiry
    /// stops it. A state it could not run in is dropped (its values stay in it).
    func runAfterDelivery(_ run: RequestRun, _ after: AfterDelivery, delivered: DeliveryResult) async -> DeliveryResult {
        var cost = PhaseCost()
        if !run.beginAfterDelivery() {
            run.log(.warn, "afterDelivery was not called: the system's time ran out (serviceExtensionTimeWillExpire)", host: true)
        } else if run.deadline.hasPassed {
            // The deadline is the system's when its expiry comes no later than the host's time.
            let systems = run.expiry.map { $0 <= run.limits.time } ?? false
            run.log(.warn, systems
                ? "afterDelivery was not called: the system's time ran out before it could start"
                : "afterDelivery was not called: no time was left before the deadline", host: true)
        } else {
            let job = await services.executor.run(
                after.hosted.sandbox, deadline: run.deadline, grace: Self.stuckGrace, onDeadline: { run.cancelDownloads() },
                control: run.control
            ) { _ in after.hosted.runAfterDelivery(run, session: after.session) }
            switch job {
            case .finished(let spent):
                cost = spent
                after.sandboxes.checkIn(after.hosted)
            case .notStarted:
                run.log(.warn, "afterDelivery was not called: " + run.afterDeliveryCause.phrase("before a Lua thread was free"), host: true)
            case .abandoned:
                cost = PhaseCost(cpu: after.hosted.sandbox.runCPUTime ?? .zero, peak: after.hosted.sandbox.memoryPeak)
                run.log(.warn, "afterDelivery did not stop at the deadline; its Lua state was abandoned (nothing delivered changed)", host: true)
            }
        }
        let state = run.sealAfterDelivery()
        var result = delivered
        result.logs = state.log.final
        result.parts = state.parts
        let total = after.cost + cost
        result.stats.cpuMs = total.cpu.milliseconds
        result.stats.memoryPeakBytes = total.peak
        result.stats.wallMs = (Deadline.now().nanoseconds - run.started.nanoseconds).millisecondsFromNanoseconds
        return result
    }
}
