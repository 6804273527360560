/// A category of notifications and its actions (`UNNotificationCategory`), as an app
/// registers it.
public struct NotificationCategory: Sendable, Hashable {
    /// The identifier a payload's `aps.category` names.
    public var identifier: String
    /// The buttons, in the order shown.
    public var actions: [NotificationAction]
    /// The category's options, in the order given.
    public var options: [CategoryOption]
    /// The intents the category's notifications relate to (`intentIdentifiers`, e.g.
    /// `"INSendMessageIntentIdentifier"`), in the order given.
    public var intentIdentifiers: [String]
    /// The text shown instead of the body when previews are hidden
    /// (`hiddenPreviewsBodyPlaceholder`, e.g. `"%u new messages"`); nil for iOS's own.
    public var hiddenPreviewsBodyPlaceholder: String?
    /// The format of the summary of a group of the category's notifications
    /// (`categorySummaryFormat`, e.g. `"%u more messages from %@"`); nil for iOS's own.
    public var categorySummaryFormat: String?

    /// Creates a category.
    public init(
        identifier: String, actions: [NotificationAction] = [], options: [CategoryOption] = [],
        intentIdentifiers: [String] = [], hiddenPreviewsBodyPlaceholder: String? = nil, categorySummaryFormat: String? = nil
    ) {
        self.identifier = identifier
        self.actions = actions
        self.options = options
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.categorySummaryFormat = categorySummaryFormat
    }
}
