/// A category of notifications and its actions (`UNNotificationCategory`), as an app
/// registers it.
public struct NotificationCategory: Sendable, Hashable {
    /// The identifier a payload's `aps.category` names.
    public var identifier: String
    /// The buttons, in the order shown.
    public var actions: [NotificationAction]
    /// The category's options, in the order given.
    public var options: [CategoryOption]

    /// Creates a category.
    public init(identifier: String, actions: [NotificationAction] = [], options: [CategoryOption] = []) {
        self.identifier = identifier
        self.actions = actions
        self.options = options
    }
}
