// The request session of ScriptHost as the adapter uses it, declared here only while the built
// ScriptHost does not declare it yet; the test uses ScriptHost's own once it does. For
// type-checking only.
import NotificationModel
import ScriptHost

/// One request's delivery, started by `ScriptHost.start`.
public final class DeliverySession: Sendable {
    /// The request's identifier.
    public let identifier: String

    init() { identifier = "" }

    /// The system's time ran out (`serviceExtensionTimeWillExpire`).
    public func expire() {}

    /// The result once the content is handed over.
    public func delivered() async -> DeliveryResult { fatalError("stand-in") }

    /// The result after the after-delivery phase.
    public func finished() async -> DeliveryResult { fatalError("stand-in") }
}

extension ScriptHost {
    /// Starts a request with the script `directory` has in service for its app.
    public func start(_ request: NotificationRequest, from directory: ScriptDirectory) -> DeliverySession { fatalError("stand-in") }

    /// Starts a request with a script the caller holds.
    public func start(_ request: NotificationRequest, script: ScriptLookup) -> DeliverySession { fatalError("stand-in") }
}
