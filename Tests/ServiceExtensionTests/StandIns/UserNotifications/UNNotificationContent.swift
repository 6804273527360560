// Declarations of Apple's UserNotifications as its documentation gives them, for
// type-checking only.
import Foundation

/// How urgently the system shows a notification (iOS 15).
public enum UNNotificationInterruptionLevel: UInt, @unchecked Sendable {
    case passive = 0
    case active = 1
    case timeSensitive = 2
    case critical = 3
}

/// A notification's content, read-only.
open class UNNotificationContent: NSObject {
    var storedTitle = ""
    var storedSubtitle = ""
    var storedBody = ""
    var storedBadge: NSNumber?
    var storedSound: UNNotificationSound?
    var storedCategoryIdentifier = ""
    var storedThreadIdentifier = ""
    var storedTargetContentIdentifier: String?
    var storedInterruptionLevel = UNNotificationInterruptionLevel.active
    var storedRelevanceScore = 0.0
    var storedFilterCriteria: String?
    var storedLaunchImageName = ""
    var storedSummaryArgument = ""
    var storedSummaryArgumentCount = 0
    var storedUserInfo: [AnyHashable: Any] = [:]
    var storedAttachments: [UNNotificationAttachment] = []

    public override init() {}

    open var title: String { storedTitle }
    open var subtitle: String { storedSubtitle }
    open var body: String { storedBody }
    open var badge: NSNumber? { storedBadge }
    open var sound: UNNotificationSound? { storedSound }
    open var categoryIdentifier: String { storedCategoryIdentifier }
    open var threadIdentifier: String { storedThreadIdentifier }
    open var targetContentIdentifier: String? { storedTargetContentIdentifier }
    open var interruptionLevel: UNNotificationInterruptionLevel { storedInterruptionLevel }
    open var relevanceScore: Double { storedRelevanceScore }
    open var filterCriteria: String? { storedFilterCriteria }
    open var launchImageName: String { storedLaunchImageName }
    @available(iOS, deprecated: 15.0, message: "This property is ignored.")
    open var summaryArgument: String { storedSummaryArgument }
    @available(iOS, deprecated: 15.0, message: "This property is ignored.")
    open var summaryArgumentCount: Int { storedSummaryArgumentCount }
    open var userInfo: [AnyHashable: Any] { storedUserInfo }
    open var attachments: [UNNotificationAttachment] { storedAttachments }
}

/// A notification's content, changeable.
open class UNMutableNotificationContent: UNNotificationContent {
    public override init() {}

    open override var title: String { get { storedTitle } set { storedTitle = newValue } }
    open override var subtitle: String { get { storedSubtitle } set { storedSubtitle = newValue } }
    open override var body: String { get { storedBody } set { storedBody = newValue } }
    open override var badge: NSNumber? { get { storedBadge } set { storedBadge = newValue } }
    open override var sound: UNNotificationSound? { get { storedSound } set { storedSound = newValue } }
    open override var categoryIdentifier: String { get { storedCategoryIdentifier } set { storedCategoryIdentifier = newValue } }
    open override var threadIdentifier: String { get { storedThreadIdentifier } set { storedThreadIdentifier = newValue } }
    open override var targetContentIdentifier: String? {
        get { storedTargetContentIdentifier }
        set { storedTargetContentIdentifier = newValue }
    }
    open override var interruptionLevel: UNNotificationInterruptionLevel {
        get { storedInterruptionLevel }
        set { storedInterruptionLevel = newValue }
    }
    open override var relevanceScore: Double { get { storedRelevanceScore } set { storedRelevanceScore = newValue } }
    open override var filterCriteria: String? { get { storedFilterCriteria } set { storedFilterCriteria = newValue } }
    open override var launchImageName: String { get { storedLaunchImageName } set { storedLaunchImageName = newValue } }
    @available(iOS, deprecated: 15.0, message: "This property is ignored.")
    open override var summaryArgument: String { get { storedSummaryArgument } set { storedSummaryArgument = newValue } }
    @available(iOS, deprecated: 15.0, message: "This property is ignored.")
    open override var summaryArgumentCount: Int {
        get { storedSummaryArgumentCount }
        set { storedSummaryArgumentCount = newValue }
    }
    open override var userInfo: [AnyHashable: Any] { get { storedUserInfo } set { storedUserInfo = newValue } }
    open override var attachments: [UNNotificationAttachment] { get { storedAttachments } set { storedAttachments = newValue } }
}
