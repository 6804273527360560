#if canImport(UserNotifications)
import Foundation
import NotificationModel
import ScriptBundles
import ScriptHost
import Synchronization
import UserNotifications

/// Runs a Notification Service Extension's notifications through a ``ScriptHost``: the two
/// methods of `UNNotificationServiceExtension` call ``didReceive(_:withContentHandler:)`` and
/// ``serviceExtensionTimeWillExpire()``, and the adapter does the rest.
///
/// For each notification it starts a `DeliverySession` of the notification's payload (the app
/// being ``app``), hands the system the content the session delivers (mapped by
/// ``content(for:)``, its categories registered first when the script registered any), and
/// then keeps the process while the script's after-delivery phase (`afterDelivery`: receipts,
/// the store) finishes, as far as the system lets it. When the system's time runs out, every
/// session not yet delivered is expired: its best attempt is delivered at once. The content
/// handler is called exactly once per notification, with the original content when the
/// payload cannot be read.
public final class NotificationServiceAdapter: Sendable {
    /// Where a request's script comes from.
    public enum Scripts: Sendable {
        /// The script a folder of `<app>.lua` scripts has in service for the app.
        case directory(ScriptDirectory)
        /// A script the extension holds (a bundled one), chosen per request.
        case lookup(@Sendable (NotificationRequest) -> ScriptLookup)
        /// The version installed scripts have in service for the app (signed bundles the app
        /// installed into the App Group), else their baseline; each result is recorded for
        /// probation and the counts when its session has finished.
        case installed(InstalledScripts)
    }

    /// The host the scripts run in.
    public let host: ScriptHost
    /// Where the scripts come from.
    public let scripts: Scripts
    /// The bundle identifier of the app the notifications are for (the containing app, not
    /// the extension): the app a script, store and categories belong to.
    public let app: String
    /// Whether the app's categories are handed to `UNUserNotificationCenter` when a script
    /// registers one (true by default).
    public let registersCategories: Bool
    /// The notifications whose content has not been handed over yet, by number: a session,
    /// or one still being started (its script chosen) and whether the system's time ran out
    /// meanwhile.
    private let undelivered = Mutex<Undelivered>(Undelivered())

    private struct Undelivered {
        enum Entry {
            case starting(expired: Bool)
            case started(DeliverySession)
        }
        var entries: [Int: Entry] = [:]
        var next = 0
    }

    /// An adapter for `app`'s notifications, with scripts from `scripts`.
    public init(host: ScriptHost, scripts: Scripts, app: String, registersCategories: Bool = true) {
        self.host = host
        self.scripts = scripts
        self.app = app
        self.registersCategories = registersCategories
    }

    /// What `didReceive(_:withContentHandler:)` does: starts the notification's delivery and
    /// returns at once; `contentHandler` is called once, from another thread, with the content.
    public func didReceive(_ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void) {
        let handler = ContentHandler(contentHandler)
        guard let payload = Self.payload(of: request.content) else {
            handler.deliver(request.content)
            return
        }
        let notification = NotificationRequest(payload: payload, app: app, identifier: request.identifier)
        let key = undelivered.withLock { state in
            defer { state.next += 1 }
            state.entries[state.next] = .starting(expired: false)
            return state.next
        }
        Task {
            let session = await start(notification)
            let expired = undelivered.withLock { state in
                guard case .starting(let expired) = state.entries[key] else { return false }
                state.entries[key] = .started(session)
                return expired
            }
            if expired { session.expire() }
            let result = await session.delivered()
            undelivered.withLock { _ = $0.entries.removeValue(forKey: key) }
            if registersCategories, !result.registeredCategories.isEmpty {
                Self.registerCategories(host.categories(app: app))
            }
            let (content, unattached) = Self.makeContent(for: result)
            handler.deliver(content)
            for url in unattached { try? FileManager.default.removeItem(at: url) }
            _ = await ProcessActivity.keep(while: session)
        }
    }

    /// What `serviceExtensionTimeWillExpire()` does: expires every notification whose content
    /// has not been handed over, so that each hands over its best attempt at once.
    public func serviceExtensionTimeWillExpire() {
        let sessions = undelivered.withLock { state in
            var sessions: [DeliverySession] = []
            for (key, entry) in state.entries {
                switch entry {
                case .starting: state.entries[key] = .starting(expired: true)
                case .started(let session): sessions.append(session)
                }
            }
            return sessions
        }
        for session in sessions { session.expire() }
    }

    private func start(_ request: NotificationRequest) async -> DeliverySession {
        switch scripts {
        case .directory(let directory):
            return host.start(request, from: directory)
        case .lookup(let lookup):
            return host.start(request, script: lookup(request))
        case .installed(let installed):
            return await host.start(request, from: installed)
        }
    }

    /// The payload of the system's content (its `userInfo`); nil when it is not one. It is
    /// checked as a value, so that `JSONSerialization`'s escapes do not count against the
    /// size limit that APNs already applied to the text it sent.
    static func payload(of content: UNNotificationContent) -> Payload? {
        let userInfo = content.userInfo
        guard JSONSerialization.isValidJSONObject(userInfo), let data = try? JSONSerialization.data(withJSONObject: userInfo),
              let value = try? JSONValue(jsonData: data)
        else { return nil }
        return try? Payload(value: value)
    }
}
#endif
