/// The content of a notification as a service extension changes it
/// (`UNMutableNotificationContent`), with Apple's names and defaults (SPEC §1).
///
/// Build it from a payload with ``init(payload:)``; change it by name with
/// ``set(_:to:)``, which checks every value as a script's assignment is checked.
public struct NotificationContent: Sendable, Hashable {
    /// The fields, in a buffer shared by copies until one of them changes (a result, a
    /// session and a run each hold the content: a copy is one reference, not one per string).
    private var fields: Fields

    /// The title; `""` when absent.
    public var title: String {
        get { fields.title }
        set { unique().title = newValue }
        _modify {
            let own = unique()
            yield &own.title
        }
    }
    /// The subtitle; `""` when absent.
    public var subtitle: String {
        get { fields.subtitle }
        set { unique().subtitle = newValue }
        _modify {
            let own = unique()
            yield &own.subtitle
        }
    }
    /// The body; `""` when absent.
    public var body: String {
        get { fields.body }
        set { unique().body = newValue }
        _modify {
            let own = unique()
            yield &own.body
        }
    }
    /// The badge number (>= 0), or nil to leave the app's badge alone.
    public var badge: Int? {
        get { fields.badge }
        set { unique().badge = newValue }
        _modify {
            let own = unique()
            yield &own.badge
        }
    }
    /// The sound, or nil for none.
    public var sound: NotificationSound? {
        get { fields.sound }
        set { unique().sound = newValue }
        _modify {
            let own = unique()
            yield &own.sound
        }
    }
    /// The category that picks the notification's actions; `""` when absent.
    public var categoryIdentifier: String {
        get { fields.categoryIdentifier }
        set { unique().categoryIdentifier = newValue }
        _modify {
            let own = unique()
            yield &own.categoryIdentifier
        }
    }
    /// The thread that groups notifications; `""` when absent.
    public var threadIdentifier: String {
        get { fields.threadIdentifier }
        set { unique().threadIdentifier = newValue }
        _modify {
            let own = unique()
            yield &own.threadIdentifier
        }
    }
    /// The window or scene to bring forward, or nil.
    public var targetContentIdentifier: String? {
        get { fields.targetContentIdentifier }
        set { unique().targetContentIdentifier = newValue }
        _modify {
            let own = unique()
            yield &own.targetContentIdentifier
        }
    }
    /// How urgently the notification is shown; ``InterruptionLevel/active`` when absent.
    public var interruptionLevel: InterruptionLevel {
        get { fields.interruptionLevel }
        set { unique().interruptionLevel = newValue }
        _modify {
            let own = unique()
            yield &own.interruptionLevel
        }
    }
    /// How the notification ranks in the summary, 0…1; 0 when absent.
    public var relevanceScore: Double {
        get { fields.relevanceScore }
        set { unique().relevanceScore = newValue }
        _modify {
            let own = unique()
            yield &own.relevanceScore
        }
    }
    /// The Focus filter the notification belongs to, or nil.
    public var filterCriteria: String? {
        get { fields.filterCriteria }
        set { unique().filterCriteria = newValue }
        _modify {
            let own = unique()
            yield &own.filterCriteria
        }
    }
    /// The launch image's name; `""` when absent.
    public var launchImageName: String {
        get { fields.launchImageName }
        set { unique().launchImageName = newValue }
        _modify {
            let own = unique()
            yield &own.launchImageName
        }
    }
    /// The summary's argument; `""` when absent.
    public var summaryArgument: String {
        get { fields.summaryArgument }
        set { unique().summaryArgument = newValue }
        _modify {
            let own = unique()
            yield &own.summaryArgument
        }
    }
    /// How many items the summary's argument counts; 0 when absent.
    public var summaryArgumentCount: Int {
        get { fields.summaryArgumentCount }
        set { unique().summaryArgumentCount = newValue }
        _modify {
            let own = unique()
            yield &own.summaryArgumentCount
        }
    }
    /// The whole payload, `aps` included, as the app receives it.
    public var userInfo: [String: JSONValue] {
        get { fields.userInfo }
        set { unique().userInfo = newValue }
        _modify {
            let own = unique()
            yield &own.userInfo
        }
    }
    /// The attached files, in the order attached.
    public var attachments: [NotificationAttachment] { fields.attachments }

    /// Empty content with Apple's defaults.
    public init() { fields = Fields() }

    /// Adds an attachment after the others.
    public mutating func attach(_ attachment: NotificationAttachment) {
        unique().attachments.append(attachment)
    }

    /// Removes every attachment.
    public mutating func removeAllAttachments() {
        unique().attachments.removeAll()
    }

    /// The fields, made this copy's own first when another copy shares them.
    @inline(__always)
    private mutating func unique() -> Fields {
        if !isKnownUniquelyReferenced(&fields) { fields = fields.copy() }
        return fields
    }

    public static func == (lhs: NotificationContent, rhs: NotificationContent) -> Bool {
        lhs.fields === rhs.fields || lhs.fields.same(as: rhs.fields)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.title)
        hasher.combine(fields.subtitle)
        hasher.combine(fields.body)
        hasher.combine(fields.badge)
        hasher.combine(fields.sound)
        hasher.combine(fields.categoryIdentifier)
        hasher.combine(fields.threadIdentifier)
        hasher.combine(fields.targetContentIdentifier)
        hasher.combine(fields.interruptionLevel)
        hasher.combine(fields.relevanceScore)
        hasher.combine(fields.filterCriteria)
        hasher.combine(fields.launchImageName)
        hasher.combine(fields.summaryArgument)
        hasher.combine(fields.summaryArgumentCount)
        hasher.combine(fields.userInfo)
        hasher.combine(fields.attachments)
    }

    /// The stored fields. Changed only through ``unique()``, by the one copy that holds them,
    /// so that no two threads ever see one of them change.
    private final class Fields: @unchecked Sendable {
        @exclusivity(unchecked) var title: String = ""
        @exclusivity(unchecked) var subtitle: String = ""
        @exclusivity(unchecked) var body: String = ""
        @exclusivity(unchecked) var badge: Int? = nil
        @exclusivity(unchecked) var sound: NotificationSound? = nil
        @exclusivity(unchecked) var categoryIdentifier: String = ""
        @exclusivity(unchecked) var threadIdentifier: String = ""
        @exclusivity(unchecked) var targetContentIdentifier: String? = nil
        @exclusivity(unchecked) var interruptionLevel: InterruptionLevel = .active
        @exclusivity(unchecked) var relevanceScore: Double = 0.0
        @exclusivity(unchecked) var filterCriteria: String? = nil
        @exclusivity(unchecked) var launchImageName: String = ""
        @exclusivity(unchecked) var summaryArgument: String = ""
        @exclusivity(unchecked) var summaryArgumentCount: Int = 0
        @exclusivity(unchecked) var userInfo: [String: JSONValue] = [:]
        @exclusivity(unchecked) var attachments: [NotificationAttachment] = []

        init() {}

        func copy() -> Fields {
            let copy = Fields()
            copy.title = title
            copy.subtitle = subtitle
            copy.body = body
            copy.badge = badge
            copy.sound = sound
            copy.categoryIdentifier = categoryIdentifier
            copy.threadIdentifier = threadIdentifier
            copy.targetContentIdentifier = targetContentIdentifier
            copy.interruptionLevel = interruptionLevel
            copy.relevanceScore = relevanceScore
            copy.filterCriteria = filterCriteria
            copy.launchImageName = launchImageName
            copy.summaryArgument = summaryArgument
            copy.summaryArgumentCount = summaryArgumentCount
            copy.userInfo = userInfo
            copy.attachments = attachments
            return copy
        }

        func same(as other: Fields) -> Bool {
            title == other.title && subtitle == other.subtitle && body == other.body && badge == other.badge && sound == other.sound && categoryIdentifier == other.categoryIdentifier && threadIdentifier == other.threadIdentifier && targetContentIdentifier == other.targetContentIdentifier && interruptionLevel == other.interruptionLevel && relevanceScore == other.relevanceScore && filterCriteria == other.filterCriteria && launchImageName == other.launchImageName && summaryArgument == other.summaryArgument && summaryArgumentCount == other.summaryArgumentCount && userInfo == other.userInfo && attachments == other.attachments
        }
    }
}
