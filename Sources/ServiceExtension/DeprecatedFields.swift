#if canImport(UserNotifications)
import UserNotifications

/// The fields iOS 15 deprecated, set without deprecation warnings: `summaryArgument` and
/// `summaryArgumentCount` (which iOS 15 and later ignore, but which a payload still carries as
/// `summary-arg` and `summary-arg-count`, and the result's content keeps), and the category
/// option `allowAnnouncement` (which iOS 15 and later decide from the user's settings). Each is
/// reached through a protocol whose witness is the deprecated declaration.
enum DeprecatedFields {
    /// Sets the summary argument and its count on `content`.
    static func setSummary(on content: UNMutableNotificationContent, argument: String, count: Int) {
        let arguments: any SummaryArguments = content
        arguments.summaryArgument = argument
        arguments.summaryArgumentCount = count
    }

    #if !os(macOS)
    /// `UNNotificationCategoryOptions.allowAnnouncement` (not on macOS).
    static var allowAnnouncement: UNNotificationCategoryOptions { announcement(UNNotificationCategoryOptions.self) }

    private static func announcement<Options: AnnouncementOption>(_: Options.Type) -> Options { Options.allowAnnouncement }
    #endif
}

/// What `UNMutableNotificationContent` has of the summary.
protocol SummaryArguments: AnyObject {
    var summaryArgument: String { get set }
    var summaryArgumentCount: Int { get set }
}

extension UNMutableNotificationContent: SummaryArguments {}

#if !os(macOS)
/// What `UNNotificationCategoryOptions` has of announcements.
protocol AnnouncementOption {
    static var allowAnnouncement: Self { get }
}

extension UNNotificationCategoryOptions: AnnouncementOption {}
#endif
#endif
