/// An option of a category (`UNNotificationCategoryOptions`), by the name scripts and
/// fixtures use.
public enum CategoryOption: String, Sendable, Hashable, CaseIterable, Codable {
    /// Dismissing the notification is sent to the app's delegate.
    case customDismissAction
    /// Notifications of the category may show in CarPlay.
    case allowInCarPlay
    /// The title shows even when previews are hidden.
    case hiddenPreviewsShowTitle
    /// The subtitle shows even when previews are hidden.
    case hiddenPreviewsShowSubtitle
    /// Siri may read notifications of the category aloud (`allowAnnouncement`, iOS 13–14; later
    /// versions decide from the user's settings).
    case allowAnnouncement
}
