/// The fields of notification content by the names scripts use (`UNMutableNotificationContent`'s
/// names), in the order of SPEC §1's table and of the result's `content`.
public enum ContentField: String, Sendable, Hashable, CaseIterable {
    /// The title; `""` when absent.
    case title
    /// The subtitle; `""` when absent.
    case subtitle
    /// The body; `""` when absent.
    case body
    /// The badge number, >= 0, or nil to leave the badge alone.
    case badge
    /// The sound, or nil for none.
    case sound
    /// The category that picks the actions.
    case categoryIdentifier
    /// The thread that groups notifications.
    case threadIdentifier
    /// The window or scene to bring forward, or nil.
    case targetContentIdentifier
    /// How urgently it is shown.
    case interruptionLevel
    /// How it ranks in the summary, 0…1.
    case relevanceScore
    /// The Focus filter it belongs to, or nil.
    case filterCriteria
    /// The launch image's name.
    case launchImageName
    /// The summary's argument.
    case summaryArgument
    /// How many items the summary's argument counts.
    case summaryArgumentCount
    /// The whole payload.
    case userInfo
    /// The attached files; read-only (see ``NotificationContent/attach(_:)``).
    case attachments

    /// The names in SPEC order, as the result's `content` writes them.
    public static let names = allCases.map(\.rawValue)

    /// The name (``rawValue``) fixed in the program, for the content's JSON keys.
    @inlinable
    public var literalName: StaticString {
        switch self {
        case .title: "title"
        case .subtitle: "subtitle"
        case .body: "body"
        case .badge: "badge"
        case .sound: "sound"
        case .categoryIdentifier: "categoryIdentifier"
        case .threadIdentifier: "threadIdentifier"
        case .targetContentIdentifier: "targetContentIdentifier"
        case .interruptionLevel: "interruptionLevel"
        case .relevanceScore: "relevanceScore"
        case .filterCriteria: "filterCriteria"
        case .launchImageName: "launchImageName"
        case .summaryArgument: "summaryArgument"
        case .summaryArgumentCount: "summaryArgumentCount"
        case .userInfo: "userInfo"
        case .attachments: "attachments"
        }
    }

    /// Whether a script may assign the field.
    public var isReadOnly: Bool {
        self == .attachments
    }

    /// Whether the field may be nil (unset).
    public var isOptional: Bool {
        switch self {
        case .badge, .sound, .targetContentIdentifier, .filterCriteria: true
        default: false
        }
    }

    /// What the field takes, as messages say it after `<field> must be `.
    public var requirement: String {
        switch self {
        case .title, .subtitle, .body, .categoryIdentifier, .threadIdentifier, .launchImageName, .summaryArgument:
            "a string"
        case .badge:
            "an integer >= 0 or nil"
        case .sound:
            "nil, a sound name or an object of name, critical, volume"
        case .targetContentIdentifier, .filterCriteria:
            "a string or nil"
        case .interruptionLevel:
            "one of " + InterruptionLevel.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        case .relevanceScore:
            "a number from 0 to 1"
        case .summaryArgumentCount:
            "an integer >= 0"
        case .userInfo:
            "an object with string keys"
        case .attachments:
            "changed by attaching files"
        }
    }
}
