extension ScriptHost {
    /// Delivers a request with the script that `directory` has in service for the request's
    /// app (``NotificationRequest/resolvedApp``): the original content with reason
    /// `no-script` when it has none. A new or changed file is checked first, within the
    /// request's deadline; task cancellation expires the request, as with
    /// ``deliver(_:script:)``.
    public func deliver(_ request: NotificationRequest, from directory: ScriptDirectory) async -> DeliveryResult {
        await deliver(request, .directory(directory), answers: nil)
    }

    /// ``deliver(_:from:)`` in the caller's isolation, for a caller already on the host's
    /// ``deliveryExecutor`` (`serve`'s lanes, which prefer it): the host's steps before and
    /// after the script's job — the script file's check, a Lua state made for the app, the
    /// result — run where the caller runs, without a switch to the generic executor first.
    /// Not for a caller on an actor: those steps would hold it.
    package nonisolated(nonsending) func deliverInPlace(_ request: NotificationRequest, from directory: ScriptDirectory) async -> DeliveryResult {
        await deliver(request, .directory(directory), answers: nil)
    }
}
