import ScriptHost

extension ScriptHost {
    /// Delivers a request with the script `installed` has in service for its app (the
    /// installed version this device takes, else the baseline, or `baseline` when given), under
    /// what that version narrows (limits, hosts, media directory), and records how it ended.
    public func deliver(_ request: NotificationRequest, from installed: InstalledScripts, baseline: ScriptLookup? = nil) async -> DeliveryResult {
        await deliver(request, from: installed, baseline: baseline, answers: nil)
    }

    /// ``deliver(_:from:baseline:)`` with `answers` for the request's downloads and posts ahead
    /// of the host's own and the network (a fixture's `media` and `http`).
    package func deliver(
        _ request: NotificationRequest, from installed: InstalledScripts, baseline: ScriptLookup? = nil, answers: RequestAnswers?
    ) async -> DeliveryResult {
        let app = request.resolvedApp
        let choice = await installed.choose(app, baseline: baseline)
        var request = request
        choice.served?.narrowing.apply(to: &request, hostLimits: configuration.limits)
        let result = await deliver(request, script: choice.lookup, answers: answers)
        installed.record(result, app: app)
        return result
    }

    /// Starts delivering a request with the script `installed` has in service for its app, as
    /// ``deliver(_:from:baseline:)`` chooses it, and returns its session (see
    /// ``ScriptHost/start(_:script:)``): ``DeliverySession/expire()`` hands over the best
    /// attempt at once, and the result is recorded when the session has finished, its
    /// `afterDelivery` included. Choosing reads the installed state, which takes the time of a
    /// file read; the request's deadline runs from the session's start.
    public func start(_ request: NotificationRequest, from installed: InstalledScripts, baseline: ScriptLookup? = nil) async -> DeliverySession {
        let app = request.resolvedApp
        let choice = await installed.choose(app, baseline: baseline)
        var request = request
        choice.served?.narrowing.apply(to: &request, hostLimits: configuration.limits)
        let session = start(request, script: choice.lookup)
        Task { installed.record(await session.finished(), app: app) }
        return session
    }
}
