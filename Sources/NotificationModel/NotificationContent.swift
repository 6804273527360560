/// The content of a notification as a service extension changes it
/// (`UNMutableNotificationContent`), with Apple's names and defaults (SPEC §1).
///
/// Build it from a payload with ``init(payload:)``; change it by name with
/// ``set(_:to:)``, which checks every value as a script's assignment is checked.
public struct NotificationContent: Sendable, Hashable {
    /// The title; `""` when absent.
    public var title = ""
    /// The subtitle; `""` when absent.
    public var subtitle = ""
    /// The body; `""` when absent.
    public var body = ""
    /// The badge number (>= 0), or nil to leave the app's badge alone.
    public var badge: Int?
    /// The sound, or nil for none.
    public var sound: NotificationSound?
    /// The category that picks the notification's actions; `""` when absent.
    public var categoryIdentifier = ""
    /// The thread that groups notifications; `""` when absent.
    public var threadIdentifier = ""
    /// The window or scene to bring forward, or nil.
    public var targetContentIdentifier: String?
    /// How urgently the notification is shown; ``InterruptionLevel/active`` when absent.
    public var interruptionLevel = InterruptionLevel.active
    /// How the notification ranks in the summary, 0…1; 0 when absent.
    public var relevanceScore = 0.0
    /// The Focus filter the notification belongs to, or nil.
    public var filterCriteria: String?
    /// The launch image's name; `""` when absent.
    public var launchImageName = ""
    /// The summary's argument; `""` when absent.
    public var summaryArgument = ""
    /// How many items the summary's argument counts; 0 when absent.
    public var summaryArgumentCount = 0
    /// The whole payload, `aps` included, as the app receives it.
    public var userInfo: [String: JSONValue] = [:]
    /// The attached files, in the order attached.
    public private(set) var attachments: [NotificationAttachment] = []

    /// Empty content with Apple's defaults.
    public init() {}

    /// Adds an attachment after the others.
    public mutating func attach(_ attachment: NotificationAttachment) {
        attachments.append(attachment)
    }

    /// Removes every attachment.
    public mutating func removeAllAttachments() {
        attachments.removeAll()
    }
}
