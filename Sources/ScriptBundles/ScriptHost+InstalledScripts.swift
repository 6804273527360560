import ScriptHost

extension ScriptHost {
    /// Delivers a request with the script `installed` has in service for its app (the
    /// installed version this device takes, else the baseline, or `baseline` when given), under
    /// what that version narrows (limits, hosts, media directory), and records how it ended.
    public func deliver(_ request: NotificationRequest, from installed: InstalledScripts, baseline: ScriptLookup? = nil) async -> DeliveryResult {
        let app = request.resolvedApp
        let choice = await installed.choose(app, baseline: baseline)
        var request = request
        choice.served?.narrowing.apply(to: &request, hostLimits: configuration.limits)
        let result = await deliver(request, script: choice.lookup)
        installed.record(result, app: app)
        return result
    }
}
