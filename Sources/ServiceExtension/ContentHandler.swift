#if canImport(UserNotifications)
import Synchronization
import UserNotifications

/// The system's content handler for one notification, called at most once.
///
/// The system lets an extension call the handler from any thread; the closure it passes is not
/// declared `Sendable`, so it is kept here, where only ``deliver(_:)`` calls it, once.
final class ContentHandler: @unchecked Sendable {
    private let handler: (UNNotificationContent) -> Void
    private let called = Atomic<Bool>(false)

    init(_ handler: @escaping (UNNotificationContent) -> Void) {
        self.handler = handler
    }

    /// Hands `content` to the system, unless it has been handed content already.
    func deliver(_ content: UNNotificationContent) {
        guard called.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        handler(content)
    }
}
#endif
