import LuaSandbox

extension ScriptHost {
    /// What running a request's job came to.
    enum Job<Value: Sendable> {
        /// It ran in this sandbox and ended so.
        case ran(HostedSandbox, JobOutcome<Value>)
        /// No sandbox could be had: the result to deliver.
        case noSandbox(DeliveryResult)
    }

    /// Checks out one of the app's sandboxes and runs `body` in it on a Lua thread under the
    /// request's deadline (downloads are cancelled when it passes), expirable by the request.
    /// The sandbox goes back to the pool when the job finished or never started; an abandoned
    /// one does not. The result to deliver when no sandbox could be had.
    func runJob<Value: Sendable>(
        _ run: RequestRun, in sandboxes: SandboxPool<HostedSandbox>,
        _ body: @escaping @Sendable (HostedSandbox, JobClock) -> Value
    ) async -> Job<Value> {
        let hosted: HostedSandbox
        do {
            hosted = try sandboxes.checkOut()
        } catch {
            return .noSandbox(finish(run, .init(kind: .load, message: error.message), original: true))
        }
        let outcome = await services.executor.run(
            hosted.sandbox, deadline: run.deadline, grace: Self.stuckGrace, onDeadline: { run.deadlineCame() }, control: run.control
        ) { _, clock in body(hosted, clock) }
        switch outcome {
        case .finished, .notStarted: sandboxes.checkIn(hosted)
        case .abandoned: break
        }
        return .ran(hosted, outcome)
    }
}
