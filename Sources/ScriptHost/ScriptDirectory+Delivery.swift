extension ScriptHost {
    /// Delivers a request with the script that `directory` has in service for the request's
    /// app (``NotificationRequest/resolvedApp``): the original content with reason
    /// `no-script` when it has none.
    public func deliver(_ request: NotificationRequest, from directory: ScriptDirectory) async -> DeliveryResult {
        await deliver(request, script: directory.script(for: request.resolvedApp))
    }
}
