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
}
